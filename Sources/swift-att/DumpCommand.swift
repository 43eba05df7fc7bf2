import SwiftATTPDU
import SwiftATTHCI
import SwiftATTL2CAP

/// `swift-att dump <file.btsnoop>`: a capture decoded the way btmon prints a live
/// session: HCI commands and events by name with their fields, ACL data reassembled
/// into L2CAP frames, and ATT PDUs decoded with the ATT codec.
enum DumpCommand {
    static func run(_ arguments: [String]) throws(CommandError) -> Int32 {
        let args = try Arguments(arguments, flags: [], command: "dump")
        if args.wantsHelp {
            Output.print(Usage.dump)
            return 0
        }
        guard args.positionals.count == 1, let path = args.positionals.first else {
            throw .usage("dump: expected one capture file (see 'swift-att dump --help')")
        }
        let bytes = try FileInput.bytes(atPath: path)
        var reader: BTSnoop.Reader
        do {
            reader = try BTSnoop.Reader(bytes[...])
        } catch {
            throw .input("\(path): \(error)")
        }
        var dumper = Dumper()
        var first: Int64?
        while true {
            let record: BTSnoop.Record
            do {
                guard let next = try reader.next() else { break }
                record = next
            } catch {
                Output.flush()
                throw .input("\(path): \(error)")
            }
            let start = first ?? record.timestamp
            first = start
            Output.print(dumper.describe(record, index: reader.index, elapsed: record.timestamp - start))
        }
        return 0
    }
}

/// Turns capture records into text, keeping the L2CAP reassembly state per direction.
struct Dumper {
    var sent = L2CAPRecombiner()
    var received = L2CAPRecombiner()

    mutating func describe(_ record: BTSnoop.Record, index: Int, elapsed: Int64) -> String {
        let arrow = record.direction == .sent ? "<" : ">"
        let seconds = Double(elapsed) / 1_000_000
        let time = String(seconds, decimals: 3)
        var lines: [String]
        switch record.packetType {
        case .command: lines = command(record.packet)
        case .event: lines = event(record.packet)
        case .aclData: lines = acl(record.packet, sent: record.direction == .sent)
        default: lines = ["\(record.packetType): \(record.packet.count) bytes"]
        }
        lines[0] = "#\(index) \(arrow) \(lines[0])    [\(time)]"
        return lines.joined(separator: "\n")
    }

    private func command(_ bytes: ArraySlice<UInt8>) -> [String] {
        guard let packet = try? HCICommandPacket(parsing: bytes) else {
            return ["HCI Command: malformed (\(Hex.encode(bytes, separator: " ")))"]
        }
        var lines = ["HCI Command: \(packet.opcode) plen \(packet.parameters.count)"]
        do {
            if let command = try packet.decodedCommand() {
                lines += ReflectedFields.lines(command, indent: "    ")
            } else if !packet.parameters.isEmpty {
                lines.append("    " + Hex.encode(packet.parameters, separator: " "))
            }
        } catch {
            lines.append("    malformed parameters: \(error)")
        }
        return lines
    }

    private func event(_ bytes: ArraySlice<UInt8>) -> [String] {
        guard let packet = try? HCIEventPacket(parsing: bytes) else {
            return ["HCI Event: malformed (\(Hex.encode(bytes, separator: " ")))"]
        }
        let event: HCIEvent
        do {
            event = try HCIEvent(packet)
        } catch {
            return ["HCI Event: 0x\(String(packet.code, radix: 16)) plen \(packet.parameters.count)", "    malformed: \(error)"]
        }
        var lines = ["HCI Event: \(event.name) (0x\(String(packet.code, radix: 16).zeroPadded(to: 2))) plen \(packet.parameters.count)"]
        switch event {
        case let .commandComplete(complete):
            lines.append("    \(complete.commandOpcode) ncmd \(complete.numHCICommandPackets)")
            if let returned = try? complete.decodedReturnParameters() {
                lines += ReflectedFields.lines(returned, indent: "    ")
            } else if let status = complete.status {
                lines.append("    Status: \(status)")
            }
        case let .commandStatus(status):
            lines.append("    \(status.commandOpcode) ncmd \(status.numHCICommandPackets)")
            lines.append("    Status: \(status.status)")
        case let .leMeta(meta):
            if let sub = meta.subevent { lines += ReflectedFields.lines(sub, indent: "    ") }
        case .unknown:
            lines.append("    " + Hex.encode(packet.parameters, separator: " "))
        default:
            if let parameters = event.event { lines += ReflectedFields.lines(parameters, indent: "    ") }
        }
        return lines
    }

    private mutating func acl(_ bytes: ArraySlice<UInt8>, sent: Bool) -> [String] {
        guard let packet = try? ACLDataPacket(parsing: bytes) else {
            return ["ACL Data: malformed (\(bytes.count) bytes)"]
        }
        var lines = ["ACL Data \(sent ? "TX" : "RX"): Handle \(packet.handle) flags 0x\(String(packet.packetBoundary.rawValue, radix: 16).zeroPadded(to: 2)) dlen \(packet.data.count)"]
        let outcome = sent ? self.sent.push(packet) : received.push(packet)
        if let dropped = outcome.dropped { lines.append("    L2CAP: \(dropped)") }
        guard let frame = outcome.frame else { return lines }
        let channelName: String
        switch frame.channel {
        case L2CAPChannelIdentifier.attribute: channelName = "ATT"
        case L2CAPChannelIdentifier.leSignaling: channelName = "LE Signaling"
        case L2CAPChannelIdentifier.securityManager: channelName = "SMP"
        default: channelName = "channel"
        }
        lines.append("    L2CAP: \(channelName) (0x\(String(frame.channel, radix: 16).zeroPadded(to: 4))) len \(frame.payload.count)")
        if frame.channel == L2CAPChannelIdentifier.attribute {
            do {
                let pdu = try ATTPDU(parsing: frame.payload)
                lines += pdu.text.split(separator: "\n", omittingEmptySubsequences: false).map { "      " + $0 }
            } catch {
                lines.append("      ATT: malformed: \(error)")
            }
        } else {
            lines.append("      " + Hex.encode(frame.payload, separator: " "))
        }
        return lines
    }
}
