import SwiftATTCore
import SwiftATTHCI
import SwiftATTL2CAP
import SwiftATTPDU
import SwiftATTPDUJSON
import SwiftATTSMP

/// `dump --json`: one object per record, one line each. Top-level keys: `record` (from
/// 1), `time` (seconds since the first record), `timestamp` (µs since the Unix epoch),
/// `direction`, `type`, then one key per layer the record carries: `command` or
/// `event` or `acl`, then `l2cap`, then `att` (the `decode att --json` object), `smp` or
/// `signaling`.
enum DumpJSON {
    static func object(_ d: DumpedRecord, elapsed: Int64) -> JSONValue {
        var o: [JSONMember] = [
            JSONMember("record", .integer(d.number)),
            JSONMember("time", .double(Double(elapsed) / 1_000_000)),
            JSONMember("timestamp", .integer(Int(d.record.timestamp))),
            JSONMember("direction", .string(d.record.direction == .sent ? "sent" : "received")),
            JSONMember("type", .string(typeName(d.record.packetType))),
        ]
        if d.record.originalLength != d.record.packet.count + 1 {
            o.append(JSONMember("originalLength", .integer(d.record.originalLength)))
        }
        switch d.body {
        case let .command(packet, decoded):
            o.append(JSONMember("command", command(packet, decoded)))
        case let .event(packet, decoded):
            o.append(JSONMember("event", event(packet, decoded)))
        case let .acl(packet, outcome):
            acl(packet, outcome, into: &o)
        case let .malformed(error):
            o.append(JSONMember("error", .string("\(error)")))
            o.append(JSONMember("bytes", .string(Hex.encode(d.record.packet))))
        case .other:
            o.append(JSONMember("length", .integer(d.record.packet.count)))
            o.append(JSONMember("bytes", .string(Hex.encode(d.record.packet))))
        }
        return .object(o)
    }

    static func typeName(_ type: HCIPacketType) -> String {
        switch type {
        case .command: return "hci-command"
        case .event: return "hci-event"
        case .aclData: return "acl"
        case .synchronousData: return "sco"
        case .isoData: return "iso"
        }
    }

    private static func command(_ packet: HCICommandPacket, _ decoded: Result<(any HCICommand)?, HCIDecodingError>) -> JSONValue {
        var o: [JSONMember] = [
            JSONMember("opcode", .integer(Int(packet.opcode.rawValue))),
            JSONMember("ogf", .integer(Int(packet.opcode.ogf))),
            JSONMember("ocf", .integer(Int(packet.opcode.ocf))),
        ]
        if let name = packet.opcode.name { o.append(JSONMember("name", .string(name))) }
        o.append(JSONMember("parametersLength", .integer(packet.parameters.count)))
        switch decoded {
        case let .success(command?): o.append(JSONMember("parameters", DumpFieldsJSON.object(command)))
        case .success(nil): o.append(JSONMember("parametersBytes", .string(Hex.encode(packet.parameters))))
        case let .failure(error):
            o.append(JSONMember("error", .string("\(error)")))
            o.append(JSONMember("parametersBytes", .string(Hex.encode(packet.parameters))))
        }
        return .object(o)
    }

    private static func event(_ packet: HCIEventPacket, _ decoded: Result<HCIEvent, HCIDecodingError>) -> JSONValue {
        var o: [JSONMember] = [JSONMember("code", .integer(Int(packet.code)))]
        let event: HCIEvent
        switch decoded {
        case let .success(e): event = e
        case let .failure(error):
            o.append(JSONMember("parametersLength", .integer(packet.parameters.count)))
            if packet.code == LEMetaEvent.code, let sub = packet.parameters.first {
                o.append(JSONMember("subeventCode", .integer(Int(sub))))
            }
            o.append(JSONMember("error", .string("\(error)")))
            o.append(JSONMember("parametersBytes", .string(Hex.encode(packet.parameters))))
            return .object(o)
        }
        if case let .leMeta(meta) = event {
            o.append(JSONMember("name", .string("LE Meta")))
            o.append(JSONMember("parametersLength", .integer(packet.parameters.count)))
            o.append(JSONMember("subeventCode", .integer(Int(packet.parameters.first ?? 0))))
            o.append(JSONMember("subeventName", .string(meta.name)))
            if let sub = meta.subevent {
                o.append(JSONMember("parameters", DumpFieldsJSON.object(sub)))
            } else {
                o.append(JSONMember("parametersBytes", .string(Hex.encode(packet.parameters.dropFirst()))))
            }
            return .object(o)
        }
        if case .unknown = event {
            o.append(JSONMember("parametersLength", .integer(packet.parameters.count)))
            o.append(JSONMember("parametersBytes", .string(Hex.encode(packet.parameters))))
            return .object(o)
        }
        o.append(JSONMember("name", .string(event.name)))
        o.append(JSONMember("parametersLength", .integer(packet.parameters.count)))
        switch event {
        case let .commandComplete(complete):
            var p: [JSONMember] = [
                JSONMember("numHCICommandPackets", .integer(Int(complete.numHCICommandPackets))),
                JSONMember("commandOpcode", .integer(Int(complete.commandOpcode.rawValue))),
            ]
            if let name = complete.commandOpcode.name { p.append(JSONMember("commandOpcodeName", .string(name))) }
            if let returned = try? complete.decodedReturnParameters() {
                p.append(JSONMember("returnParameters", DumpFieldsJSON.object(returned)))
            } else {
                if let status = complete.status {
                    p.append(JSONMember("status", .integer(Int(status.rawValue))))
                    p.append(JSONMember("statusName", .string(status.name)))
                }
                p.append(JSONMember("returnParametersBytes", .string(Hex.encode(complete.returnParameters))))
            }
            o.append(JSONMember("parameters", .object(p)))
        case let .numberOfCompletedPackets(e):
            // The most frequent event in a data transfer: written directly.
            o.append(JSONMember("parameters", .object([
                JSONMember("entries", .array(e.entries.map { entry in
                    .object([JSONMember("connectionHandle", .integer(Int(entry.connectionHandle))),
                             JSONMember("numCompletedPackets", .integer(Int(entry.numCompletedPackets)))])
                })),
            ])))
        default:
            if let parameters = event.event { o.append(JSONMember("parameters", DumpFieldsJSON.object(parameters))) }
        }
        return .object(o)
    }

    private static func acl(_ packet: ACLDataPacket, _ outcome: L2CAPRecombiner.Outcome, into o: inout [JSONMember]) {
        o.append(JSONMember("acl", .object([
            JSONMember("handle", .integer(Int(packet.handle))),
            JSONMember("packetBoundary", .integer(Int(packet.packetBoundary.rawValue))),
            JSONMember("broadcast", .integer(Int(packet.broadcast))),
            JSONMember("dataLength", .integer(packet.data.count)),
        ])))
        if let dropped = outcome.dropped { o.append(JSONMember("l2capDropped", .string("\(dropped)"))) }
        guard let frame = outcome.frame else {
            if outcome.dropped == nil { o.append(JSONMember("l2cap", .object([JSONMember("fragment", .bool(true))]))) }
            return
        }
        var l2cap: [JSONMember] = [JSONMember("channel", .integer(Int(frame.channel)))]
        if let name = DumpText.channelName(frame.channel) { l2cap.append(JSONMember("channelName", .string(name))) }
        l2cap.append(JSONMember("length", .integer(frame.payload.count)))
        switch frame.channel {
        case L2CAPChannelIdentifier.attribute:
            o.append(JSONMember("l2cap", .object(l2cap)))
            do {
                o.append(JSONMember("att", try ATTPDU(parsing: frame.payload).json))
            } catch {
                o.append(JSONMember("att", .object([JSONMember("error", .string("\(error)")),
                                                     JSONMember("bytes", .string(Hex.encode(frame.payload)))])))
            }
        case L2CAPChannelIdentifier.securityManager:
            o.append(JSONMember("l2cap", .object(l2cap)))
            o.append(JSONMember("smp", smp(frame.payload)))
        case L2CAPChannelIdentifier.leSignaling:
            o.append(JSONMember("l2cap", .object(l2cap)))
            o.append(JSONMember("signaling", signaling(frame.payload)))
        default:
            l2cap.append(JSONMember("payload", .string(Hex.encode(frame.payload))))
            o.append(JSONMember("l2cap", .object(l2cap)))
        }
    }

    private static func smp(_ payload: ArraySlice<UInt8>) -> JSONValue {
        do {
            let pdu = try SMPPDU(decoding: payload)
            var o: [JSONMember] = [JSONMember("code", .integer(Int(pdu.code.rawValue))),
                                   JSONMember("name", .string(pdu.code.name))]
            if case let .object(fields) = DumpFieldsJSON.object(pdu) { o += fields.filter { $0.key != "case" } }
            return .object(o)
        } catch {
            return .object([JSONMember("code", payload.first.map { .integer(Int($0)) } ?? .null),
                            JSONMember("error", .string("\(error)")),
                            JSONMember("bytes", .string(Hex.encode(payload)))])
        }
    }

    private static func signaling(_ payload: ArraySlice<UInt8>) -> JSONValue {
        do {
            let packet = try LESignalingPacket(parsing: payload)
            var o: [JSONMember] = [JSONMember("code", .integer(Int(packet.code)))]
            if let code = LESignalingCode(rawValue: packet.code) { o.append(JSONMember("name", .string(code.name))) }
            o.append(JSONMember("identifier", .integer(Int(packet.identifier))))
            do {
                let command = try LESignalingCommand(packet)
                if case let .object(fields) = DumpFieldsJSON.object(command) { o += fields.filter { $0.key != "case" } }
            } catch {
                o.append(JSONMember("error", .string("\(error)")))
                o.append(JSONMember("data", .string(Hex.encode(packet.data))))
            }
            return .object(o)
        } catch {
            return .object([JSONMember("error", .string("\(error)")), JSONMember("bytes", .string(Hex.encode(payload)))])
        }
    }
}
