import SwiftATTCore

/// The btsnoop capture format that btmon, Android, Bumble, Wireshark and tshark share
/// (RFC 1761 "snoop" with Bluetooth datalinks). All fields are big-endian.
///
/// A file is a 16-byte header (`btsnoop\0`, version 1, datalink) and then records:
/// original length, included length, flags, cumulative drops, a timestamp in
/// microseconds since year 0, and the packet. With datalink 1002 (HCI UART) each packet
/// starts with its H4 indicator; with 1001 (un-encapsulated) the flags say command/event
/// vs data and direction.
public enum BTSnoop {
    /// Datalink 1001: packets without an H4 indicator.
    public static let datalinkUnencapsulated: UInt32 = 1001
    /// Datalink 1002: packets with an H4 indicator (what swift-att writes).
    public static let datalinkH4: UInt32 = 1002
    /// Microseconds from 0000-01-01 to the Unix epoch, the format's time origin.
    public static let unixEpochOffset: Int64 = 0x00DC_DDB3_0F2F_8000

    static let magic: [UInt8] = Array("btsnoop".utf8) + [0]

    /// Which way a packet went.
    public enum Direction: Sendable, Hashable {
        /// Host to controller (commands, outgoing ACL).
        case sent
        /// Controller to host (events, incoming ACL).
        case received
    }

    /// One captured HCI packet.
    public struct Record: Sendable, Hashable {
        /// Sent by the host or received from the controller.
        public var direction: Direction
        /// The H4 packet type: command, ACL, event…
        public var packetType: HCIPacketType
        /// The packet after its indicator.
        public var packet: ArraySlice<UInt8>
        /// Microseconds since the Unix epoch.
        public var timestamp: Int64
        /// Set when the capture kept only part of the packet.
        public var originalLength: Int

        /// A record of `packet`, taken at `timestamp` microseconds since the Unix epoch.
        public init(direction: Direction, packetType: HCIPacketType, packet: ArraySlice<UInt8>, timestamp: Int64) {
            self.direction = direction
            self.packetType = packetType
            self.packet = packet
            self.timestamp = timestamp
            originalLength = packet.count + 1
        }
    }

    /// Reads every record of a capture held in memory; stops with a typed error at the
    /// first malformed record, naming its index.
    public static func records(in file: [UInt8]) throws(HCIDecodingError) -> [Record] {
        var reader = try Reader(file[...])
        var out: [Record] = []
        while let r = try reader.next() { out.append(r) }
        return out
    }

    /// Walks a capture's records in order.
    public struct Reader {
        let bytes: ArraySlice<UInt8>
        let datalink: UInt32
        var offset = 16
        /// How many records have been read.
        public private(set) var index = 0

        /// A reader of the capture in `bytes`; throws if the header is not btsnoop's.
        public init(_ bytes: ArraySlice<UInt8>) throws(HCIDecodingError) {
            guard bytes.count >= 16 else { throw .truncated("btsnoop header", need: 16, have: bytes.count) }
            guard bytes.prefix(8).elementsEqual(BTSnoop.magic) else { throw .notBTSnoop }
            let version = bytes.bigEndianUInt32(at: 8)
            datalink = bytes.bigEndianUInt32(at: 12)
            guard version == 1, datalink == datalinkH4 || datalink == datalinkUnencapsulated else {
                throw .unsupportedBTSnoop(version: version, datalink: datalink)
            }
            self.bytes = bytes
        }

        /// The next record, or `nil` at the end of the file.
        public mutating func next() throws(HCIDecodingError) -> Record? {
            let remaining = bytes.count - offset
            guard remaining > 0 else { return nil }
            let what = "btsnoop record \(index)"
            guard remaining >= 24 else { throw .truncated(what, need: 24, have: remaining) }
            let original = Int(bytes.bigEndianUInt32(at: offset))
            let included = Int(bytes.bigEndianUInt32(at: offset + 4))
            let flags = bytes.bigEndianUInt32(at: offset + 8)
            let timestamp = Int64(bitPattern: UInt64(bytes.bigEndianUInt32(at: offset + 16)) << 32
                | UInt64(bytes.bigEndianUInt32(at: offset + 20)))
            guard included <= remaining - 24 else { throw .truncated(what, need: 24 + included, have: remaining) }
            var packet = bytes.bytes(at: offset + 24, count: included)
            offset += 24 + included
            index += 1
            let direction: Direction = flags & 1 == 0 ? .sent : .received
            let type: HCIPacketType
            if datalink == datalinkH4 {
                guard let first = packet.first else { throw .truncated(what, need: 1, have: 0) }
                guard let t = HCIPacketType(rawValue: first) else { throw .unknownPacketType(first) }
                type = t
                packet = packet.dropFirst()
            } else {
                let isControl = flags & 2 != 0
                type = isControl ? (direction == .sent ? .command : .event) : .aclData
            }
            var record = Record(direction: direction, packetType: type, packet: packet,
                                timestamp: timestamp &- BTSnoop.unixEpochOffset)
            record.originalLength = original
            return record
        }
    }

    /// Builds a capture in memory: the header, then one record per `append`. The caller
    /// writes `bytes` (or what was appended since it last looked) to a file.
    public struct Writer: Sendable {
        /// The capture so far: the header and every record appended.
        public private(set) var bytes: [UInt8]

        /// A capture with the header alone (datalink 1002, H4).
        public init() {
            bytes = BTSnoop.magic
            bytes.append(bigEndian: 1)
            bytes.append(bigEndian: BTSnoop.datalinkH4)
        }

        /// Forgets everything built so far (a file writer calls this once the bytes are
        /// on disk); later records append from empty.
        public mutating func discardWritten() {
            bytes.removeAll(keepingCapacity: true)
        }

        /// Adds one packet (without its indicator) with a Unix-epoch timestamp in µs.
        public mutating func append(_ type: HCIPacketType, _ packet: ArraySlice<UInt8>, direction: Direction, timestamp: Int64) {
            let length = UInt32(packet.count + 1)
            bytes.append(bigEndian: length)
            bytes.append(bigEndian: length)
            let control: UInt32 = type == .command || type == .event ? 2 : 0
            bytes.append(bigEndian: control | (direction == .received ? 1 : 0))
            bytes.append(bigEndian: 0)
            let t = UInt64(bitPattern: timestamp &+ BTSnoop.unixEpochOffset)
            bytes.append(bigEndian: UInt32(truncatingIfNeeded: t >> 32))
            bytes.append(bigEndian: UInt32(truncatingIfNeeded: t))
            bytes.append(type.rawValue)
            bytes.append(contentsOf: packet)
        }
    }
}

extension ArraySlice<UInt8> {
    func bigEndianUInt32(at offset: Int) -> UInt32 {
        let i = startIndex + offset
        return UInt32(self[i]) << 24 | UInt32(self[i + 1]) << 16 | UInt32(self[i + 2]) << 8 | UInt32(self[i + 3])
    }
}

extension Array<UInt8> {
    mutating func append(bigEndian value: UInt32) {
        append(contentsOf: [UInt8(value >> 24), UInt8(truncatingIfNeeded: value >> 16),
                            UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value)])
    }
}
