import SwiftATTCore
import SwiftATTHCI
import SwiftATTL2CAP

/// One capture record decoded once, for `dump`'s text and JSON forms and its filter:
/// the HCI packet, and for ACL data the L2CAP frame it completes (reassembled per
/// direction and connection handle).
struct DumpedRecord {
    var number: Int
    var record: BTSnoop.Record
    var body: Body
    /// The layers the record carries, for `--filter`.
    var layers: DumpLayers

    enum Body {
        case command(HCICommandPacket, Result<(any HCICommand)?, HCIDecodingError>)
        case event(HCIEventPacket, Result<HCIEvent, HCIDecodingError>)
        case acl(ACLDataPacket, L2CAPRecombiner.Outcome)
        /// A packet too short for its own header.
        case malformed(HCIDecodingError)
        /// SCO and ISO data: shown by length only.
        case other
    }
}

/// The layers `--filter` selects by name.
struct DumpLayers: OptionSet {
    let rawValue: UInt16
    static let hciCommand = DumpLayers(rawValue: 1 << 0)
    static let hciEvent = DumpLayers(rawValue: 1 << 1)
    static let acl = DumpLayers(rawValue: 1 << 2)
    static let l2cap = DumpLayers(rawValue: 1 << 3)
    static let att = DumpLayers(rawValue: 1 << 4)
    static let smp = DumpLayers(rawValue: 1 << 5)
    static let l2capSignaling = DumpLayers(rawValue: 1 << 6)
    static let leMeta = DumpLayers(rawValue: 1 << 7)
    static let advertising = DumpLayers(rawValue: 1 << 8)
    static let sco = DumpLayers(rawValue: 1 << 9)
    static let iso = DumpLayers(rawValue: 1 << 10)

    /// `--filter` names, in the order `dump --help` lists them.
    static let names: [(String, DumpLayers)] = [
        ("hci-command", .hciCommand), ("hci-event", .hciEvent), ("le-meta", .leMeta),
        ("advertising", .advertising), ("acl", .acl), ("l2cap", .l2cap), ("att", .att), ("smp", .smp),
        ("l2cap-signaling", .l2capSignaling), ("sco", .sco), ("iso", .iso),
    ]
}

/// Decodes records in capture order, keeping the L2CAP reassembly state per direction.
struct DumpDecoder {
    private var sent = L2CAPRecombiner()
    private var received = L2CAPRecombiner()

    mutating func decode(_ record: BTSnoop.Record, number: Int) -> DumpedRecord {
        var out = DumpedRecord(number: number, record: record, body: .other, layers: [])
        switch record.packetType {
        case .command:
            out.layers = .hciCommand
            guard let packet = try? HCICommandPacket(parsing: record.packet) else {
                out.body = .malformed(.truncated("HCI command header", need: 3, have: record.packet.count))
                return out
            }
            let command = Result { () throws(HCIDecodingError) in try packet.decodedCommand() }
            if Self.advertisingOpcodes.contains(packet.opcode.rawValue) { out.layers.insert(.advertising) }
            out.body = .command(packet, command)
        case .event:
            out.layers = .hciEvent
            guard let packet = try? HCIEventPacket(parsing: record.packet) else {
                out.body = .malformed(.truncated("HCI event header", need: 2, have: record.packet.count))
                return out
            }
            let event = Result { () throws(HCIDecodingError) in try HCIEvent(packet) }
            if packet.code == LEMetaEvent.code { out.layers.insert(.leMeta) }
            if case let .success(e) = event {
                if case let .leMeta(meta) = e {
                    switch meta {
                    case .advertisingReport, .extendedAdvertisingReport: out.layers.insert(.advertising)
                    default: break
                    }
                }
            }
            out.body = .event(packet, event)
        case .aclData:
            out.layers = .acl
            guard let packet = try? ACLDataPacket(parsing: record.packet) else {
                out.body = .malformed(.truncated("ACL data header", need: 4, have: record.packet.count))
                return out
            }
            let outcome = record.direction == .sent ? sent.push(packet) : received.push(packet)
            if let frame = outcome.frame {
                out.layers.insert(.l2cap)
                switch frame.channel {
                case L2CAPChannelIdentifier.attribute: out.layers.insert(.att)
                case L2CAPChannelIdentifier.securityManager: out.layers.insert(.smp)
                case L2CAPChannelIdentifier.leSignaling: out.layers.insert(.l2capSignaling)
                default: break
                }
            }
            out.body = .acl(packet, outcome)
        case .synchronousData:
            out.layers = .sco
        case .isoData:
            out.layers = .iso
        }
        return out
    }

    /// LE Set Advertising Data, Scan Response Data and their extended forms, and the
    /// advertising and scanning parameter/enable commands.
    static let advertisingOpcodes: Set<UInt16> = [
        0x2006, 0x2008, 0x2009, 0x200A, 0x200B, 0x200C,
        0x2036, 0x2037, 0x2038, 0x2039, 0x2041, 0x2042,
    ]

    /// Whether the record is about connection `handle`: an ACL packet on it, or a
    /// command or event whose `connectionHandle` field (or one of whose Number Of
    /// Completed Packets entries) names it.
    static func concerns(_ dumped: DumpedRecord, handle: UInt16) -> Bool {
        switch dumped.body {
        case let .acl(packet, _):
            return packet.handle == handle
        case let .command(_, .success(command?)):
            return connectionHandle(in: command) == handle
        case let .event(_, .success(event)):
            switch event {
            case let .numberOfCompletedPackets(e):
                return e.entries.contains { $0.connectionHandle == handle }
            case let .leMeta(meta):
                return meta.subevent.map { connectionHandle(in: $0) == handle } ?? false
            case .commandComplete, .commandStatus, .unknown:
                return false
            default:
                return event.event.map { connectionHandle(in: $0) == handle } ?? false
            }
        default:
            return false
        }
    }

    private static func connectionHandle(in value: Any) -> UInt16? {
        for child in Mirror(reflecting: value).children where child.label == "connectionHandle" {
            return child.value as? UInt16
        }
        return nil
    }
}
