import SwiftATTCore

/// ATT_READ_BY_GROUP_TYPE_RSP: groups (services) with their end handles and values, all
/// values of one length. Core 5.4 Vol 3 Part F §3.4.4.10.
public struct ReadByGroupTypeResponse: ATTEntryListPDU {
    public static let opcode = ATTOpcode.readByGroupTypeResponse

    /// One group: its first handle, its last handle, and the grouping attribute's value.
    public struct AttributeData: ATTListEntry {
        public var attributeHandle: UInt16
        public var endGroupHandle: UInt16
        public var value: ArraySlice<UInt8>

        @usableFromInline
        enum Field {
            @usableFromInline static let attributeHandle = 0..<2
            @usableFromInline static let endGroupHandle = 2..<4
            @usableFromInline static let value = 4...
        }

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

        public var encodedLength: Int { Field.value.lowerBound + value.count }

        public func encode(into writer: inout ByteWriter) {
            writer.write(attributeHandle)
            writer.write(endGroupHandle)
            writer.write(value)
        }
    }

    @inlinable
    static var entryLengthField: ATTEntryLengthField { .length(minimum: AttributeData.Field.value.lowerBound) }

    /// Each entry's octets: 4 for the handles plus the value length (the Length field).
    public let length: Int
    /// The entries' bytes.
    public let attributeDataBytes: ArraySlice<UInt8>

    /// The entries, decoded on access.
    public var attributeDataList: ATTEntryList<AttributeData> { list }

    /// A response from groups whose values all have the same length (at most 251).
    public init(_ entries: [AttributeData]) throws(ATTDecodingError) {
        self.init(list: try Self.list(of: entries))
    }

    @inlinable
    init(list: ATTEntryList<AttributeData>) {
        length = list.entryLength
        attributeDataBytes = list.bytes
    }

    @inlinable
    var list: ATTEntryList<AttributeData> { ATTEntryList(unchecked: attributeDataBytes, entryLength: length) }
}
