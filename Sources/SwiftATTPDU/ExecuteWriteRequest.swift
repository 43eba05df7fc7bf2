import SwiftATTCore

/// ATT_EXECUTE_WRITE_REQ: write or discard every prepared value. Core 5.4 Vol 3 Part F §3.4.6.3.
public struct ExecuteWriteRequest: ATTPDUCodable, ATTBorrowedPDU {
    @inlinable public static var opcode: ATTOpcode { .executeWriteRequest }

    /// Whether to write the queued values or drop them.
    public enum Flags: UInt8, Sendable, Hashable {
        /// Discard all prepared writes.
        case cancelAll = 0x00
        /// Write all prepared values, in order.
        case writeAll = 0x01
    }

    /// Write or discard.
    public var flags: Flags

    /// A request to write or discard the queue.
    public init(flags: Flags) { self.flags = flags }

    @usableFromInline
    enum Field {
        @inlinable static var flags: Int { 1 }
        @inlinable static var pduLength: Int { 2 }
    }

    @inlinable
    public init(parsing pdu: borrowing ArraySlice<UInt8>) throws(ATTDecodingError) {
        try ATTWire.check(pdu, is: Self.opcode, length: Field.pduLength)
        let raw = pdu.byte(at: Field.flags)
        guard let flags = Flags(rawValue: raw) else { throw .invalidExecuteWriteFlags(raw) }
        self.flags = flags
    }

    /// Parses one whole PDU from borrowed bytes (`ATTBorrowedPDU`): it has no byte fields,
    /// so it decodes to itself.
    @inlinable @inline(__always)
    public init(parsing pdu: Span<UInt8>) throws(ATTDecodingError) {
        try ATTWire.check(pdu, is: Self.opcode, length: Field.pduLength)
        let raw = pdu.byte(at: Field.flags)
        guard let flags = Flags(rawValue: raw) else { throw .invalidExecuteWriteFlags(raw) }
        self.flags = flags
    }

    public var encodedLength: Int { Field.pduLength }

    public func encode(into writer: inout ByteWriter) {
        writer.write(Self.opcode.rawValue)
        writer.write(flags.rawValue)
    }
}
