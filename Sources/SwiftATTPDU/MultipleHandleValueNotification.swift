import SwiftATTCore

/// ATT_MULTIPLE_HANDLE_VALUE_NTF: two or more notifications in one PDU, each value with
/// its handle and length. Core 5.4 Vol 3 Part F §3.4.7.4.
public struct MultipleHandleValueNotification: ATTPDUCodable {
    @inlinable public static var opcode: ATTOpcode { .multipleHandleValueNotification }
    /// The (handle, length, value) tuples, two or more.
    public var handleLengthValueTupleList: ATTTupleList

    /// A notification of `tuples`, each with its handle.
    public init(_ tuples: [ATTTupleList.Tuple]) {
        handleLengthValueTupleList = ATTTupleList(tuples, hasHandles: true)
    }

    @inlinable
    init(handleLengthValueTupleList: ATTTupleList) { self.handleLengthValueTupleList = handleLengthValueTupleList }

    @usableFromInline
    enum Field {
        @inlinable static var handleLengthValueTupleList: PartialRangeFrom<Int> { 1... }
    }

    @inlinable
    public init(parsing pdu: borrowing ArraySlice<UInt8>) throws(ATTDecodingError) {
        let tuples = Field.handleLengthValueTupleList
        try ATTWire.check(pdu, is: Self.opcode, atLeast: tuples.lowerBound)
        handleLengthValueTupleList = try .parse(
            pdu.bytes(at: tuples), of: Self.opcode, hasHandles: true,
            minimumCount: 2, allowTruncatedLast: false, pduOffset: tuples.lowerBound)
    }

    public var encodedLength: Int { Field.handleLengthValueTupleList.lowerBound + handleLengthValueTupleList.bytes.count }

    public func encode(into writer: inout ByteWriter) {
        writer.write(Self.opcode.rawValue)
        writer.write(handleLengthValueTupleList.bytes)
    }
}

extension MultipleHandleValueNotification {
    /// ATT_MULTIPLE_HANDLE_VALUE_NTF decoded from borrowed bytes (`ATTBorrowedPDU`): the
    /// tuples are the range of them they cover, walked with
    /// `handleLengthValueTupleList.cursor`.
    public struct Borrowed: ATTBorrowedPDU {
        public typealias Owned = MultipleHandleValueNotification
        /// Where the tuples lie in the PDU, checked once.
        public let handleLengthValueTupleList: ATTTupleList.Borrowed

        @inlinable @inline(__always)
        public init(parsing pdu: Span<UInt8>) throws(ATTDecodingError) {
            let tuples = Field.handleLengthValueTupleList
            try ATTWire.check(pdu, is: Owned.opcode, atLeast: tuples.lowerBound)
            handleLengthValueTupleList = try .parse(
                pdu, at: tuples, of: Owned.opcode, hasHandles: true, minimumCount: 2, allowTruncatedLast: false)
        }

        @inlinable
        public func owned(in pdu: ArraySlice<UInt8>) -> MultipleHandleValueNotification {
            MultipleHandleValueNotification(handleLengthValueTupleList: handleLengthValueTupleList.owned(in: pdu))
        }
    }
}
