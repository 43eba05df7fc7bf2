import SwiftATTCore

/// ATT_HANDLE_VALUE_IND: a server pushes a value the client must confirm. Core 5.4 Vol 3 Part F §3.4.7.2.
public struct HandleValueIndication: ATTHandleValuePDU {
    public static let opcode = ATTOpcode.handleValueIndication
    public var handle: UInt16
    public var value: ArraySlice<UInt8>

    public init(handle: UInt16, value: ArraySlice<UInt8>) {
        self.handle = handle
        self.value = value
    }
}
