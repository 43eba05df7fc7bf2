import SwiftATTCore

/// ATT_READ_MULTIPLE_RSP: the requested values concatenated, with no lengths: only the
/// client, which knows each value's fixed length, can split them.
/// Core 5.4 Vol 3 Part F §3.4.4.8.
public struct ReadMultipleResponse: ATTPDUCodable {
    @inlinable public static var opcode: ATTOpcode { .readMultipleResponse }
    /// The values, one after another with nothing between them: the client knows their lengths.
    public var setOfValues: ArraySlice<UInt8>

    /// A response of the concatenated values.
    public init(setOfValues: ArraySlice<UInt8>) { self.setOfValues = setOfValues }

    @usableFromInline
    enum Field {
        @inlinable static var setOfValues: PartialRangeFrom<Int> { 1... }
    }

    @inlinable
    public init(parsing pdu: borrowing ArraySlice<UInt8>) throws(ATTDecodingError) {
        try ATTWire.check(pdu, is: Self.opcode, atLeast: Field.setOfValues.lowerBound)
        setOfValues = pdu.bytes(at: Field.setOfValues)
    }

    public var encodedLength: Int { Field.setOfValues.lowerBound + setOfValues.count }

    public func encode(into writer: inout ByteWriter) {
        writer.write(Self.opcode.rawValue)
        writer.write(setOfValues)
    }
}

extension ReadMultipleResponse {
    /// ATT_READ_MULTIPLE_RSP decoded from borrowed bytes (`ATTBorrowedPDU`): the values are
    /// the range of them they cover.
    public struct Borrowed: ATTBorrowedPDU {
        public typealias Owned = ReadMultipleResponse
        /// Where the concatenated values lie in the PDU.
        public let setOfValues: Range<Int>

        @inlinable @inline(__always)
        public init(parsing pdu: Span<UInt8>) throws(ATTDecodingError) {
            try ATTWire.check(pdu, is: Owned.opcode, atLeast: Field.setOfValues.lowerBound)
            setOfValues = pdu.range(of: Field.setOfValues)
        }

        @inlinable
        public func owned(in pdu: ArraySlice<UInt8>) -> ReadMultipleResponse {
            ReadMultipleResponse(setOfValues: pdu.bytes(at: setOfValues))
        }
    }
}
