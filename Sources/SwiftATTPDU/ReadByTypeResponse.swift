import SwiftATTCore

/// ATT_READ_BY_TYPE_RSP: handle–value pairs whose values all have one length.
/// Core 5.4 Vol 3 Part F §3.4.4.2.
public struct ReadByTypeResponse: ATTEntryListPDU {
    public static let opcode = ATTOpcode.readByTypeResponse

    /// One attribute's handle and value.
    public struct AttributeData: ATTListEntry {
        public var handle: UInt16
        public var value: ArraySlice<UInt8>

        @usableFromInline
        enum Field {
            @usableFromInline static let handle = 0..<2
            @usableFromInline static let value = 2...
        }

        public init(handle: UInt16, value: ArraySlice<UInt8>) {
            self.handle = handle
            self.value = value
        }

        @inlinable
        public init(entryBytes: ArraySlice<UInt8>) {
            handle = entryBytes.littleEndianUInt16(at: Field.handle)
            value = entryBytes.bytes(at: Field.value)
        }

        public var encodedLength: Int { Field.value.lowerBound + value.count }

        public func encode(into writer: inout ByteWriter) {
            writer.write(handle)
            writer.write(value)
        }
    }

    @inlinable
    static var entryLengthField: ATTEntryLengthField { .length(minimum: AttributeData.Field.value.lowerBound) }

    /// Each entry's octets: 2 for the handle plus the value length (the Length field).
    public let length: Int
    /// The entries' bytes.
    public let attributeDataBytes: ArraySlice<UInt8>

    /// The entries, decoded on access.
    public var attributeDataList: ATTEntryList<AttributeData> { list }

    /// A response from entries whose values all have the same length (at most 253).
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
