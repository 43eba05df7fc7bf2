import SwiftATTCore

/// ATT_READ_BY_TYPE_RSP: handle–value pairs whose values all have one length.
/// Core 5.4 Vol 3 Part F §3.4.4.2.
public struct ReadByTypeResponse: ATTAttributeDataListPDU {
    public static let opcode = ATTOpcode.readByTypeResponse

    /// One attribute's handle and value.
    public struct AttributeData: ATTAttributeDataEntry {
        public var handle: UInt16
        public var value: ArraySlice<UInt8>

        @usableFromInline
        enum Field {
            @inlinable static var handle: Range<Int> { 0..<2 }
            @inlinable static var value: PartialRangeFrom<Int> { 2... }
        }

        @inlinable public static var valueOffset: Int { Field.value.lowerBound }

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
