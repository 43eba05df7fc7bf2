import SwiftATTCore

/// ATT_FIND_INFORMATION_RSP: handle–type pairs, all 16-bit or all 128-bit.
/// Core 5.4 Vol 3 Part F §3.4.3.2.
public struct FindInformationResponse: ATTPDUCodable {
    public static let opcode = ATTOpcode.findInformationResponse

    /// Whether the list holds 16-bit (0x01) or 128-bit (0x02) UUIDs.
    public enum Format: UInt8, Sendable, Hashable {
        case uuid16 = 0x01
        case uuid128 = 0x02

        /// Octets per handle–UUID pair.
        public var entryLength: Int { self == .uuid16 ? 4 : 18 }
    }

    /// One handle and its attribute type.
    public struct Information: ATTListEntry {
        public var handle: UInt16
        public var uuid: BluetoothUUID

        public init(handle: UInt16, uuid: BluetoothUUID) {
            self.handle = handle
            self.uuid = uuid
        }

        @inlinable
        public init(entryBytes: ArraySlice<UInt8>) {
            handle = entryBytes.littleEndianUInt16(at: 0)
            uuid = entryBytes.count == 4
                ? BluetoothUUID(entryBytes.littleEndianUInt16(at: 2))
                : BluetoothUUID(uuid128: entryBytes.littleEndianUInt128(at: 2))
        }
    }

    public let format: Format
    /// The pairs' bytes. Stored as plain bytes, not as the generic list, so a decoded
    /// `ATTPDU` needs no generic metadata at run time (copying or destroying one stays cheap).
    public let informationDataBytes: ArraySlice<UInt8>

    /// The handle–UUID pairs, decoded on access.
    public var informationData: ATTEntryList<Information> {
        ATTEntryList(unchecked: informationDataBytes, entryLength: format.entryLength)
    }

    /// A response from pairs whose UUIDs all have the same width (16 or 128 bits).
    public init(_ entries: [Information]) throws(ATTDecodingError) {
        guard let first = entries.first?.uuid.width, first != .bits32 else {
            throw entries.isEmpty ? .tooFewEntries(Self.opcode, count: 0, minimum: 1)
                : .invalidUUIDLength(Self.opcode, byteCount: 4)
        }
        format = first == .bits16 ? .uuid16 : .uuid128
        informationDataBytes = try ATTEntryList<Information>.build(entries, of: Self.opcode, entryLength: { 2 + $0.uuid.encodedLength }) { e, out in
            out.append(littleEndian: e.handle)
            out.append(contentsOf: e.uuid.encoded())
        }.bytes
    }

    @inlinable
    public init(parsing pdu: borrowing ArraySlice<UInt8>) throws(ATTDecodingError) {
        try ATTWire.check(pdu, is: Self.opcode, atLeast: 2)
        let raw = pdu.byte(at: 1)
        guard let format = Format(rawValue: raw) else { throw .invalidFormat(raw) }
        self.format = format
        informationDataBytes = try ATTEntryList<Information>.parse(pdu.bytes(from: 2), entryLength: format.entryLength, of: Self.opcode).bytes
    }

    public var encodedLength: Int { 2 + informationDataBytes.count }

    public func encode(into writer: inout ByteWriter) {
        writer.write(Self.opcode.rawValue)
        writer.write(format.rawValue)
        writer.write(informationDataBytes)
    }
}
