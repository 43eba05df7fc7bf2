import SwiftATTCore

/// ATT_READ_BY_GROUP_TYPE_RSP: groups (services) with their end handles and values, all
/// values of one length. Core 5.4 Vol 3 Part F §3.4.4.10.
public struct ReadByGroupTypeResponse: ATTAttributeDataListPDU {
    public static let opcode = ATTOpcode.readByGroupTypeResponse

    /// One group: its first handle, its last handle, and the grouping attribute's value.
    public struct AttributeData: ATTAttributeDataEntry {
        public var attributeHandle: UInt16
        public var endGroupHandle: UInt16
        public var value: ArraySlice<UInt8>

        @usableFromInline
        enum Field {
            @inlinable static var attributeHandle: Range<Int> { 0..<2 }
            @inlinable static var endGroupHandle: Range<Int> { 2..<4 }
            @inlinable static var value: PartialRangeFrom<Int> { 4... }
        }

        @inlinable public static var valueOffset: Int { Field.value.lowerBound }

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
