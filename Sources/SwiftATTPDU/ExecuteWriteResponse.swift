import SwiftATTCore

/// ATT_EXECUTE_WRITE_RSP: the prepared writes were written or cancelled. Core 5.4 Vol 3 Part F §3.4.6.4.
public struct ExecuteWriteResponse: ATTOpcodeOnlyPDU {
    @inlinable public static var opcode: ATTOpcode { .executeWriteResponse }

    public init() {}
}
