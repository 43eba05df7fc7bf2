import SwiftATTCore

/// ATT_READ_BY_TYPE_RSP: handle–value pairs whose values all have one length.
/// Core 5.4 Vol 3 Part F §3.4.4.2.
public struct ReadByTypeResponse: ATTAttributeDataListPDU {
    @inlinable public static var opcode: ATTOpcode { .readByTypeResponse }

    /// One attribute's handle and value.
    public struct AttributeData: ATTAttributeDataEntry {
        /// The attribute's handle.
        public var handle: UInt16
        public var value: ArraySlice<UInt8>

        @usableFromInline
        enum Field {
            @inlinable static var handle: Range<Int> { 0..<2 }
            @inlinable static var value: PartialRangeFrom<Int> { 2... }
        }

        @inlinable public static var valueOffset: Int { Field.value.lowerBound }

        /// An entry for the attribute at `handle` with its `value`.
        public init(handle: UInt16, value: ArraySlice<UInt8>) {
            self.handle = handle
            self.value = value
        }

        @inlinable
        public init(entryBytes: ArraySlice<UInt8>) {
            handle = entryBytes.littleEndianUInt16(at: Field.handle)
            value = entryBytes.bytes(at: Field.value)
        }

        public func encode(into writer: inout ByteWriter) {
            writer.write(handle)
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

extension ReadByTypeResponse {
    /// ATT_READ_BY_TYPE_RSP decoded from borrowed bytes (`ATTBorrowedPDU`): the list is the range of them
    /// it covers, and each entry is read from them on access.
    public struct Borrowed: ATTBorrowedEntryListPDU {
        public typealias Owned = ReadByTypeResponse
        public let entries: Range<Int>
        public let entryLength: Int

        @inlinable
        public init(entries: Range<Int>, entryLength: Int) {
            self.entries = entries
            self.entryLength = entryLength
        }

        /// Each entry's octets (the Length field).
        @inlinable public var length: Int { entryLength }

        /// The `index`th handle–value pair, read from `pdu`: the bytes this was decoded from.
        @inlinable
        public func attributeData(at index: Int, in pdu: Span<UInt8>) -> AttributeData.Borrowed {
            typealias Field = AttributeData.Field
            let entry = entry(at: index)
            return AttributeData.Borrowed(
                handle: pdu.littleEndianUInt16(at: entry.lowerBound &+ Field.handle.lowerBound),
                value: (entry.lowerBound &+ Field.value.lowerBound)..<entry.upperBound)
        }
    }
}

extension ReadByTypeResponse.AttributeData {
    /// One entry read from borrowed bytes: the value is the range of the PDU it covers.
    public struct Borrowed: Sendable, Hashable {
        /// The attribute's handle.
        public let handle: UInt16
        /// Where the value lies in the PDU.
        public let value: Range<Int>

        /// A borrowed entry whose value lies at `value`.
        @inlinable
        public init(handle: UInt16, value: Range<Int>) {
            self.handle = handle
            self.value = value
        }
    }
}
