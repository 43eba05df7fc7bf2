import SwiftATTCore

/// ATT_READ_MULTIPLE_VARIABLE_RSP: each requested value with its length; the last may be
/// truncated to fit ATT_MTU−1. Core 5.4 Vol 3 Part F §3.4.4.12.
public struct ReadMultipleVariableResponse: ATTPDUCodable {
    @inlinable public static var opcode: ATTOpcode { .readMultipleVariableResponse }
    /// The (length, value) tuples, in the order of the request's handles.
    public var lengthValueTupleList: ATTTupleList

    /// A response of `tuples`, which carry no handles.
    public init(_ tuples: [ATTTupleList.Tuple]) {
        lengthValueTupleList = ATTTupleList(tuples, hasHandles: false)
    }

    @inlinable
    init(lengthValueTupleList: ATTTupleList) { self.lengthValueTupleList = lengthValueTupleList }

    @usableFromInline
    enum Field {
        @inlinable static var lengthValueTupleList: PartialRangeFrom<Int> { 1... }
    }

    @inlinable
    public init(parsing pdu: borrowing ArraySlice<UInt8>) throws(ATTDecodingError) {
        let tuples = Field.lengthValueTupleList
        try ATTWire.check(pdu, is: Self.opcode, atLeast: tuples.lowerBound)
        lengthValueTupleList = try .parse(
            pdu.bytes(at: tuples), of: Self.opcode, hasHandles: false,
            minimumCount: 1, allowTruncatedLast: true, pduOffset: tuples.lowerBound)
    }

    public var encodedLength: Int { Field.lengthValueTupleList.lowerBound + lengthValueTupleList.bytes.count }

    public func encode(into writer: inout ByteWriter) {
        writer.write(Self.opcode.rawValue)
        writer.write(lengthValueTupleList.bytes)
    }
}

extension ReadMultipleVariableResponse {
    /// ATT_READ_MULTIPLE_VARIABLE_RSP decoded from borrowed bytes (`ATTBorrowedPDU`): the
    /// tuples are the range of them they cover, walked with `lengthValueTupleList.cursor`.
    public struct Borrowed: ATTBorrowedPDU {
        public typealias Owned = ReadMultipleVariableResponse
        /// Where the tuples lie in the PDU, checked once.
        public let lengthValueTupleList: ATTTupleList.Borrowed

        @inlinable @inline(__always)
        public init(parsing pdu: Span<UInt8>) throws(ATTDecodingError) {
            let tuples = Field.lengthValueTupleList
            try ATTWire.check(pdu, is: Owned.opcode, atLeast: tuples.lowerBound)
            lengthValueTupleList = try .parse(
                pdu, at: tuples, of: Owned.opcode, hasHandles: false, minimumCount: 1, allowTruncatedLast: true)
        }

        @inlinable
        public func owned(in pdu: ArraySlice<UInt8>) -> ReadMultipleVariableResponse {
            ReadMultipleVariableResponse(lengthValueTupleList: lengthValueTupleList.owned(in: pdu))
        }
    }
}
