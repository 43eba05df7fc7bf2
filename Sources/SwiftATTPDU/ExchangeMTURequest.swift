import SwiftATTCore

/// ATT_EXCHANGE_MTU_REQ: the client's receive MTU. Core 5.4 Vol 3 Part F §3.4.2.1.
///
/// The codec keeps any value; the bearer applies the spec's floor of 23.
public struct ExchangeMTURequest: ATTPDUCodable, ATTBorrowedPDU {
    @inlinable public static var opcode: ATTOpcode { .exchangeMTURequest }
    /// The largest ATT PDU the client can receive, at least 23.
    public var clientRxMTU: UInt16

    /// A request announcing `clientRxMTU`.
    public init(clientRxMTU: UInt16) { self.clientRxMTU = clientRxMTU }

    @usableFromInline
    enum Field {
        @inlinable static var clientRxMTU: Range<Int> { 1..<3 }
        @inlinable static var pduLength: Int { 3 }
    }

    @inlinable
    public init(parsing pdu: borrowing ArraySlice<UInt8>) throws(ATTDecodingError) {
        try ATTWire.check(pdu, is: Self.opcode, length: Field.pduLength)
        clientRxMTU = pdu.littleEndianUInt16(at: Field.clientRxMTU)
    }

    /// Parses one whole PDU from borrowed bytes (`ATTBorrowedPDU`): it has no byte fields,
    /// so it decodes to itself.
    @inlinable @inline(__always)
    public init(parsing pdu: Span<UInt8>) throws(ATTDecodingError) {
        try ATTWire.check(pdu, is: Self.opcode, length: Field.pduLength)
        clientRxMTU = pdu.littleEndianUInt16(at: Field.clientRxMTU)
    }

    public var encodedLength: Int { Field.pduLength }

    public func encode(into writer: inout ByteWriter) {
        writer.write(Self.opcode.rawValue)
        writer.write(clientRxMTU)
    }
}
