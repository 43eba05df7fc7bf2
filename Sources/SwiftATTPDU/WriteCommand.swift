import SwiftATTCore

/// ATT_WRITE_CMD: write a value with no response (write without response). Core 5.4 Vol 3 Part F §3.4.5.3.
public struct WriteCommand: ATTHandleValuePDU {
    public static let opcode = ATTOpcode.writeCommand
    public var handle: UInt16
    public var value: ArraySlice<UInt8>

    public init(handle: UInt16, value: ArraySlice<UInt8>) {
        self.handle = handle
        self.value = value
    }
}
