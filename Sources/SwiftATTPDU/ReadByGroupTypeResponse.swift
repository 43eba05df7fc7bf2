import SwiftATTCore

/// ATT_READ_BY_GROUP_TYPE_RSP: groups (services) with their end handles and values, all
/// values of one length. Core 5.4 Vol 3 Part F §3.4.4.10.
public struct ReadByGroupTypeResponse: ATTPDUCodable {
    public static let opcode = ATTOpcode.readByGroupTypeResponse

    /// One group: its first handle, its last handle, and the grouping attribute's value.
    public struct AttributeData: ATTListEntry {
        public var attributeHandle: UInt16
        public var endGroupHandle: UInt16
        public var value: ArraySlice<UInt8>

        public init(attributeHandle: UInt16, endGroupHandle: UInt16, value: ArraySlice<UInt8>) {
            self.attributeHandle = attributeHandle
            self.endGroupHandle = endGroupHandle
            self.value = value
        }

        @inlinable
        public init(entryBytes: ArraySlice<UInt8>) {
            attributeHandle = entryBytes.littleEndianUInt16(at: 0)
            endGroupHandle = entryBytes.littleEndianUInt16(at: 2)
            value = entryBytes.bytes(from: 4)
        }
    }

    /// Each entry's octets: 4 for the handles plus the value length (the Length field).
    public let length: Int
    /// The entries' bytes, stored plainly so a decoded `ATTPDU` needs no generic metadata.
    public let attributeDataBytes: ArraySlice<UInt8>

    /// The entries, decoded on access.
    public var attributeDataList: ATTEntryList<AttributeData> {
        ATTEntryList(unchecked: attributeDataBytes, entryLength: length)
    }

    /// A response from groups whose values all have the same length (at most 251).
    public init(_ entries: [AttributeData]) throws(ATTDecodingError) {
        if let long = entries.first(where: { $0.value.count > 251 }) {
            throw .invalidEntryLength(Self.opcode, length: 4 + long.value.count, allowed: 4...255)
        }
        let list = try ATTEntryList<AttributeData>.build(entries, of: Self.opcode, entryLength: { 4 + $0.value.count }) { e, out in
            out.append(littleEndian: e.attributeHandle)
            out.append(littleEndian: e.endGroupHandle)
            out.append(contentsOf: e.value)
        }
        length = list.entryLength
        attributeDataBytes = list.bytes
    }

    @inlinable
    public init(parsing pdu: borrowing ArraySlice<UInt8>) throws(ATTDecodingError) {
        try ATTWire.check(pdu, is: Self.opcode, atLeast: 2)
        let length = Int(pdu.byte(at: 1))
        guard length >= 4 else { throw .invalidEntryLength(Self.opcode, length: length, allowed: 4...255) }
        self.length = length
        attributeDataBytes = try ATTEntryList<AttributeData>.parse(pdu.bytes(from: 2), entryLength: length, of: Self.opcode).bytes
    }

    public var encodedLength: Int { 2 + attributeDataBytes.count }

    public func encode(into writer: inout ByteWriter) {
        writer.write(Self.opcode.rawValue)
        writer.write(UInt8(truncatingIfNeeded: length))
        writer.write(attributeDataBytes)
    }
}
