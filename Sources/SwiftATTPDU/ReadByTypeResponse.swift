import SwiftATTCore

/// ATT_READ_BY_TYPE_RSP: handle–value pairs whose values all have one length.
/// Core 5.4 Vol 3 Part F §3.4.4.2.
public struct ReadByTypeResponse: ATTPDUCodable {
    public static let opcode = ATTOpcode.readByTypeResponse

    /// One attribute's handle and value.
    public struct AttributeData: ATTListEntry {
        public var handle: UInt16
        public var value: ArraySlice<UInt8>

        public init(handle: UInt16, value: ArraySlice<UInt8>) {
            self.handle = handle
            self.value = value
        }

        @inlinable
        public init(entryBytes: ArraySlice<UInt8>) {
            handle = entryBytes.littleEndianUInt16(at: 0)
            value = entryBytes.bytes(from: 2)
        }
    }

    /// Each entry's octets: 2 for the handle plus the value length (the Length field).
    public let length: Int
    /// The entries' bytes, stored plainly so a decoded `ATTPDU` needs no generic metadata.
    public let attributeDataBytes: ArraySlice<UInt8>

    /// The entries, decoded on access.
    public var attributeDataList: ATTEntryList<AttributeData> {
        ATTEntryList(unchecked: attributeDataBytes, entryLength: length)
    }

    /// A response from entries whose values all have the same length (at most 253).
    public init(_ entries: [AttributeData]) throws(ATTDecodingError) {
        if let long = entries.first(where: { $0.value.count > 253 }) {
            throw .invalidEntryLength(Self.opcode, length: 2 + long.value.count, allowed: 2...255)
        }
        let list = try ATTEntryList<AttributeData>.build(entries, of: Self.opcode, entryLength: { 2 + $0.value.count }) { e, out in
            out.append(littleEndian: e.handle)
            out.append(contentsOf: e.value)
        }
        length = list.entryLength
        attributeDataBytes = list.bytes
    }

    @inlinable
    public init(parsing pdu: borrowing ArraySlice<UInt8>) throws(ATTDecodingError) {
        try ATTWire.check(pdu, is: Self.opcode, atLeast: 2)
        let length = Int(pdu.byte(at: 1))
        guard length >= 2 else { throw .invalidEntryLength(Self.opcode, length: length, allowed: 2...255) }
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
