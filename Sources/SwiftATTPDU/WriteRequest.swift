import SwiftATTCore

/// ATT_WRITE_REQ: write a value and expect a Write Response. Core 5.4 Vol 3 Part F §3.4.5.1.
public struct WriteRequest: ATTHandleValuePDU {
    public static let opcode = ATTOpcode.writeRequest
    public var handle: UInt16
    public var value: ArraySlice<UInt8>

    public init(handle: UInt16, value: ArraySlice<UInt8>) {
        self.handle = handle
        self.value = value
    }
}
