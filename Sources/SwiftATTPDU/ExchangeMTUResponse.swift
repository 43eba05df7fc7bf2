import SwiftATTCore

/// ATT_EXCHANGE_MTU_RSP: the server's receive MTU. Core 5.4 Vol 3 Part F §3.4.2.2.
public struct ExchangeMTUResponse: ATTPDUCodable, ATTBorrowedPDU {
    @inlinable public static var opcode: ATTOpcode { .exchangeMTUResponse }
    /// The largest ATT PDU the server can receive, at least 23.
    public var serverRxMTU: UInt16

    /// A response announcing `serverRxMTU`.
    public init(serverRxMTU: UInt16) { self.serverRxMTU = serverRxMTU }

    @usableFromInline
    enum Field {
        @inlinable static var serverRxMTU: Range<Int> { 1..<3 }
        @inlinable static var pduLength: Int { 3 }
    }

    @inlinable
    public init(parsing pdu: borrowing ArraySlice<UInt8>) throws(ATTDecodingError) {
        try ATTWire.check(pdu, is: Self.opcode, length: Field.pduLength)
        serverRxMTU = pdu.littleEndianUInt16(at: Field.serverRxMTU)
    }

    /// Parses one whole PDU from borrowed bytes (`ATTBorrowedPDU`): it has no byte fields,
    /// so it decodes to itself.
    @inlinable @inline(__always)
    public init(parsing pdu: Span<UInt8>) throws(ATTDecodingError) {
        try ATTWire.check(pdu, is: Self.opcode, length: Field.pduLength)
        serverRxMTU = pdu.littleEndianUInt16(at: Field.serverRxMTU)
    }

    public var encodedLength: Int { Field.pduLength }

    public func encode(into writer: inout ByteWriter) {
        writer.write(Self.opcode.rawValue)
        writer.write(serverRxMTU)
    }
}
