import SwiftATTCore

/// ATT_HANDLE_VALUE_CFM: the client received an indication. Core 5.4 Vol 3 Part F §3.4.7.3.
public struct HandleValueConfirmation: ATTOpcodeOnlyPDU {
    @inlinable public static var opcode: ATTOpcode { .handleValueConfirmation }

    public init() {}
}
