import SwiftATTCore

/// ATT_MULTIPLE_HANDLE_VALUE_NTF: two or more notifications in one PDU, each value with
/// its handle and length. Core 5.4 Vol 3 Part F §3.4.7.4.
public struct MultipleHandleValueNotification: ATTPDUCodable {
    public static let opcode = ATTOpcode.multipleHandleValueNotification
    public var handleLengthValueTupleList: ATTTupleList

    public init(_ tuples: [ATTTupleList.Tuple]) {
        handleLengthValueTupleList = ATTTupleList(tuples, hasHandles: true)
    }

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
