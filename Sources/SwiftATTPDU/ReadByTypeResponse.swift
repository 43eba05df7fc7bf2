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
            @usableFromInline static let handle = 0..<2
            @usableFromInline static let value = 2...
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

    public let entryList: ATTEntryList<AttributeData>

    @inlinable
    public init(entryList: ATTEntryList<AttributeData>) { self.entryList = entryList }
}
