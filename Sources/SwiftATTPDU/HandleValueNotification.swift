import SwiftATTCore

/// ATT_HANDLE_VALUE_NTF: a server pushes a value, unacknowledged. Core 5.4 Vol 3 Part F §3.4.7.1.
public struct HandleValueNotification: ATTHandleValuePDU {
    public static let opcode = ATTOpcode.handleValueNotification
    public var handle: UInt16
    public var value: ArraySlice<UInt8>

    public init(handle: UInt16, value: ArraySlice<UInt8>) {
        self.handle = handle
        self.value = value
    }
}
