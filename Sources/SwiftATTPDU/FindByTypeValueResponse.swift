import SwiftATTCore

/// ATT_FIND_BY_TYPE_VALUE_RSP: the handle ranges of the matching attributes.
/// Core 5.4 Vol 3 Part F §3.4.3.4.
public struct FindByTypeValueResponse: ATTEntryListPDU {
    @inlinable public static var opcode: ATTOpcode { .findByTypeValueResponse }

    /// A found attribute and the end of its group (the service's last handle).
    public struct HandlesInformation: ATTListEntry {
        /// The handle of an attribute that matched.
        public var foundAttributeHandle: UInt16
        /// The last handle of that attribute's group (a service's end), or the same handle.
        public var groupEndHandle: UInt16

        @usableFromInline
        enum Field {
            @inlinable static var foundAttributeHandle: Range<Int> { 0..<2 }
            @inlinable static var groupEndHandle: Range<Int> { 2..<4 }
        }

        /// An entry for a match at `foundAttributeHandle`, its group ending at `groupEndHandle`.
        public init(foundAttributeHandle: UInt16, groupEndHandle: UInt16) {
            self.foundAttributeHandle = foundAttributeHandle
            self.groupEndHandle = groupEndHandle
        }

        @inlinable
        public init(entryBytes: ArraySlice<UInt8>) {
            foundAttributeHandle = entryBytes.littleEndianUInt16(at: Field.foundAttributeHandle)
            groupEndHandle = entryBytes.littleEndianUInt16(at: Field.groupEndHandle)
        }

        public var encodedLength: Int { Field.groupEndHandle.upperBound }

        public func encode(into writer: inout ByteWriter) {
            writer.write(foundAttributeHandle)
            writer.write(groupEndHandle)
        }
    }

    @inlinable
    public static var entryLengthField: ATTEntryLengthField { .absent(entryLength: HandlesInformation.Field.groupEndHandle.upperBound) }

    /// The entries' octets and their length, stored plainly rather than as an
    /// `ATTEntryList<HandlesInformation>`: a generic value inside `ATTPDU` makes every copy and
    /// destruction of a decoded PDU, whatever its kind, go through the type's metadata.
    @usableFromInline let entryBytes: ArraySlice<UInt8>
    @usableFromInline let entryLength: Int

    /// The entries, decoded on access.
    @inlinable
    public var entryList: ATTEntryList<HandlesInformation> { ATTEntryList(unchecked: entryBytes, entryLength: entryLength) }

    @inlinable
    public init(entryList: ATTEntryList<HandlesInformation>) {
        entryBytes = entryList.bytes
        entryLength = entryList.entryLength
    }

    /// The found ranges, decoded on access.
    @inlinable public var handlesInformationList: ATTEntryList<HandlesInformation> { entryList }
    /// The list's bytes.
    @inlinable public var handlesInformationBytes: ArraySlice<UInt8> { entryList.bytes }
}

extension FindByTypeValueResponse {
    /// ATT_FIND_BY_TYPE_VALUE_RSP decoded from borrowed bytes (`ATTBorrowedPDU`): the list is the range of them
    /// it covers, and each entry is read from them on access.
    public struct Borrowed: ATTBorrowedEntryListPDU {
        public typealias Owned = FindByTypeValueResponse
        public let entries: Range<Int>
        public let entryLength: Int

        @inlinable
        public init(entries: Range<Int>, entryLength: Int) {
            self.entries = entries
            self.entryLength = entryLength
        }

        /// The `index`th found range, read from `pdu`: the bytes this was decoded from. An
        /// entry owns no bytes, so it is the slice decoder's own entry type.
        @inlinable
        public func handlesInformation(at index: Int, in pdu: Span<UInt8>) -> HandlesInformation {
            typealias Field = HandlesInformation.Field
            let start = entry(at: index).lowerBound
            return HandlesInformation(
                foundAttributeHandle: pdu.littleEndianUInt16(at: start &+ Field.foundAttributeHandle.lowerBound),
                groupEndHandle: pdu.littleEndianUInt16(at: start &+ Field.groupEndHandle.lowerBound))
        }
    }
}
