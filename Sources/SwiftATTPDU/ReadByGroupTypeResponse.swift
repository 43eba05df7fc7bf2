import SwiftATTCore

/// ATT_READ_BY_GROUP_TYPE_RSP: groups (services) with their end handles and values, all
/// values of one length. Core 5.4 Vol 3 Part F §3.4.4.10.
public struct ReadByGroupTypeResponse: ATTAttributeDataListPDU {
    @inlinable public static var opcode: ATTOpcode { .readByGroupTypeResponse }

    /// One group: its first handle, its last handle, and the grouping attribute's value.
    public struct AttributeData: ATTAttributeDataEntry {
        /// The handle of the group's declaration.
        public var attributeHandle: UInt16
        /// The last handle of the group.
        public var endGroupHandle: UInt16
        public var value: ArraySlice<UInt8>

        @usableFromInline
        enum Field {
            @inlinable static var attributeHandle: Range<Int> { 0..<2 }
            @inlinable static var endGroupHandle: Range<Int> { 2..<4 }
            @inlinable static var value: PartialRangeFrom<Int> { 4... }
        }

        @inlinable public static var valueOffset: Int { Field.value.lowerBound }

        /// An entry for the group from `attributeHandle` to `endGroupHandle` with its declaration's
        /// `value`.
        public init(attributeHandle: UInt16, endGroupHandle: UInt16, value: ArraySlice<UInt8>) {
            self.attributeHandle = attributeHandle
            self.endGroupHandle = endGroupHandle
            self.value = value
        }

        @inlinable
        public init(entryBytes: ArraySlice<UInt8>) {
            attributeHandle = entryBytes.littleEndianUInt16(at: Field.attributeHandle)
            endGroupHandle = entryBytes.littleEndianUInt16(at: Field.endGroupHandle)
            value = entryBytes.bytes(at: Field.value)
        }

        public func encode(into writer: inout ByteWriter) {
            writer.write(attributeHandle)
            writer.write(endGroupHandle)
            writer.write(value)
        }
    }

    /// The entries' octets and their length, stored plainly rather than as an
    /// `ATTEntryList<AttributeData>`: a generic value inside `ATTPDU` makes every copy and
    /// destruction of a decoded PDU, whatever its kind, go through the type's metadata.
    @usableFromInline let entryBytes: ArraySlice<UInt8>
    @usableFromInline let entryLength: Int

    /// The entries, decoded on access.
    @inlinable
    public var entryList: ATTEntryList<AttributeData> { ATTEntryList(unchecked: entryBytes, entryLength: entryLength) }

    @inlinable
    public init(entryList: ATTEntryList<AttributeData>) {
        entryBytes = entryList.bytes
        entryLength = entryList.entryLength
    }
}

extension ReadByGroupTypeResponse {
    /// ATT_READ_BY_GROUP_TYPE_RSP decoded from borrowed bytes (`ATTBorrowedPDU`): the list is the range of them
    /// it covers, and each entry is read from them on access.
    public struct Borrowed: ATTBorrowedEntryListPDU {
        public typealias Owned = ReadByGroupTypeResponse
        public let entries: Range<Int>
        public let entryLength: Int

        @inlinable
        public init(entries: Range<Int>, entryLength: Int) {
            self.entries = entries
            self.entryLength = entryLength
        }

        /// Each entry's octets (the Length field).
        @inlinable public var length: Int { entryLength }

        /// The `index`th group, read from `pdu`: the bytes this was decoded from.
        @inlinable
        public func attributeData(at index: Int, in pdu: Span<UInt8>) -> AttributeData.Borrowed {
            typealias Field = AttributeData.Field
            let entry = entry(at: index)
            return AttributeData.Borrowed(
                attributeHandle: pdu.littleEndianUInt16(at: entry.lowerBound &+ Field.attributeHandle.lowerBound),
                endGroupHandle: pdu.littleEndianUInt16(at: entry.lowerBound &+ Field.endGroupHandle.lowerBound),
                value: (entry.lowerBound &+ Field.value.lowerBound)..<entry.upperBound)
        }
    }
}

extension ReadByGroupTypeResponse.AttributeData {
    /// One entry read from borrowed bytes: the value is the range of the PDU it covers.
    public struct Borrowed: Sendable, Hashable {
        /// The handle of the group's declaration.
        public let attributeHandle: UInt16
        /// The last handle of the group.
        public let endGroupHandle: UInt16
        /// Where the declaration's value lies in the PDU.
        public let value: Range<Int>

        /// A borrowed entry whose value lies at `value`.
        @inlinable
        public init(attributeHandle: UInt16, endGroupHandle: UInt16, value: Range<Int>) {
            self.attributeHandle = attributeHandle
            self.endGroupHandle = endGroupHandle
            self.value = value
        }
    }
}
