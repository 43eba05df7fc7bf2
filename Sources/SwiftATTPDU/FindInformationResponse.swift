import SwiftATTCore

/// ATT_FIND_INFORMATION_RSP: handle–type pairs, all 16-bit or all 128-bit.
/// Core 5.4 Vol 3 Part F §3.4.3.2.
public struct FindInformationResponse: ATTEntryListPDU {
    @inlinable public static var opcode: ATTOpcode { .findInformationResponse }

    /// Whether the list holds 16-bit (0x01) or 128-bit (0x02) UUIDs.
    public enum Format: UInt8, Sendable, Hashable {
        /// Every entry carries a 16-bit UUID.
        case uuid16 = 0x01
        /// Every entry carries a 128-bit UUID.
        case uuid128 = 0x02

        /// Octets per handle–UUID pair.
        @inlinable
        public var entryLength: Int {
            switch self {
            case .uuid16: Information.Field.uuid16.upperBound
            case .uuid128: Information.Field.uuid128.upperBound
            }
        }
    }

    /// One handle and its attribute type.
    public struct Information: ATTListEntry {
        /// The attribute's handle.
        public var handle: UInt16
        /// The attribute's type.
        public var uuid: BluetoothUUID

        @usableFromInline
        enum Field {
            @inlinable static var handle: Range<Int> { 0..<2 }
            /// The UUID in a list of format 0x01.
            @inlinable static var uuid16: Range<Int> { 2..<4 }
            /// The UUID in a list of format 0x02.
            @inlinable static var uuid128: Range<Int> { 2..<18 }
        }

        /// An entry for the attribute at `handle` of type `uuid`.
        public init(handle: UInt16, uuid: BluetoothUUID) {
            self.handle = handle
            self.uuid = uuid
        }

        @inlinable
        public init(entryBytes: ArraySlice<UInt8>) {
            handle = entryBytes.littleEndianUInt16(at: Field.handle)
            uuid = entryBytes.count == Field.uuid16.upperBound
                ? BluetoothUUID(entryBytes.littleEndianUInt16(at: Field.uuid16))
                : BluetoothUUID(uuid128: entryBytes.littleEndianUInt128(at: Field.uuid128))
        }

        public var encodedLength: Int { Field.handle.upperBound + uuid.encodedLength }

        public func encode(into writer: inout ByteWriter) {
            writer.write(handle)
            uuid.encode(into: &writer)
        }
    }

    @inlinable
    public static var entryLengthField: ATTEntryLengthField {
        .format(uuid16: Information.Field.uuid16.upperBound, uuid128: Information.Field.uuid128.upperBound)
    }

    /// The entries' octets and their length, stored plainly rather than as an
    /// `ATTEntryList<Information>`: a generic value inside `ATTPDU` makes every copy and
    /// destruction of a decoded PDU, whatever its kind, go through the type's metadata.
    @usableFromInline let entryBytes: ArraySlice<UInt8>
    @usableFromInline let entryLength: Int

    /// The entries, decoded on access.
    @inlinable
    public var entryList: ATTEntryList<Information> { ATTEntryList(unchecked: entryBytes, entryLength: entryLength) }

    @inlinable
    public init(entryList: ATTEntryList<Information>) {
        entryBytes = entryList.bytes
        entryLength = entryList.entryLength
    }

    /// A response from pairs whose UUIDs all have the same width (16 or 128 bits).
    public init(_ entries: [Information]) throws(ATTDecodingError) {
        guard let first = entries.first?.uuid.width, first != .bits32 else {
            throw entries.isEmpty ? .tooFewEntries(Self.opcode, count: 0, minimum: 1)
                : .invalidUUIDLength(Self.opcode, byteCount: 4)
        }
        self.init(entryList: try .build(entries, of: Self.opcode))
    }

    /// Whether the pairs hold 16-bit or 128-bit UUIDs.
    @inlinable public var format: Format { entryList.entryLength == Information.Field.uuid16.upperBound ? .uuid16 : .uuid128 }
    /// The handle–UUID pairs, decoded on access.
    @inlinable public var informationData: ATTEntryList<Information> { entryList }
    /// The pairs' bytes.
    @inlinable public var informationDataBytes: ArraySlice<UInt8> { entryList.bytes }
}

extension FindInformationResponse {
    /// ATT_FIND_INFORMATION_RSP decoded from borrowed bytes (`ATTBorrowedPDU`): the list is the range of them
    /// it covers, and each entry is read from them on access.
    public struct Borrowed: ATTBorrowedEntryListPDU {
        public typealias Owned = FindInformationResponse
        public let entries: Range<Int>
        public let entryLength: Int

        @inlinable
        public init(entries: Range<Int>, entryLength: Int) {
            self.entries = entries
            self.entryLength = entryLength
        }

        /// Whether the pairs hold 16-bit or 128-bit UUIDs.
        @inlinable public var format: Format { entryLength == Information.Field.uuid16.upperBound ? .uuid16 : .uuid128 }

        /// The `index`th handle–UUID pair, read from `pdu`: the bytes this was decoded from.
        /// A pair owns no bytes, so it is the slice decoder's own entry type.
        @inlinable
        public func information(at index: Int, in pdu: Span<UInt8>) -> Information {
            typealias Field = Information.Field
            let start = entry(at: index).lowerBound
            let handle = pdu.littleEndianUInt16(at: start &+ Field.handle.lowerBound)
            let uuid = entryLength == Field.uuid16.upperBound
                ? BluetoothUUID(pdu.littleEndianUInt16(at: start &+ Field.uuid16.lowerBound))
                : BluetoothUUID(uuid128: pdu.littleEndianUInt128(at: start &+ Field.uuid128.lowerBound))
            return Information(handle: handle, uuid: uuid)
        }
    }
}
