import SwiftATTCore

/// ATT_WRITE_RSP: a Write Request succeeded. Core 5.4 Vol 3 Part F §3.4.5.2.
public struct WriteResponse: ATTOpcodeOnlyPDU {
    @inlinable public static var opcode: ATTOpcode { .writeResponse }

    public init() {}
}
