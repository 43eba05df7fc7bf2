import SwiftATTCore
import SwiftATTHCI
import SwiftATTL2CAP
import SwiftATTPDU
import SwiftATTSMP

/// `dump`'s text form, btmon-style: `#1 < HCI Command: Reset (0x0c03) plen 0  [0.000]`,
/// then the fields indented; ACL data with its L2CAP frame and the ATT, SMP or
/// signaling PDU inside; advertising data decoded into AD structures.
enum DumpText {
    static func text(_ d: DumpedRecord, elapsed: Int64) -> String {
        let arrow = d.record.direction == .sent ? "<" : ">"
        let time = String(Double(elapsed) / 1_000_000, decimals: 3)
        var lines: [String]
        switch d.body {
        case let .command(packet, decoded): lines = command(packet, decoded)
        case let .event(packet, decoded): lines = event(packet, decoded)
        case let .acl(packet, outcome): lines = acl(packet, outcome, sent: d.record.direction == .sent)
        case let .malformed(error): lines = ["\(d.record.packetType): malformed: \(error) (\(Hex.encode(d.record.packet, separator: " ")))"]
        case .other: lines = ["\(d.record.packetType): \(String(count: d.record.packet.count, "byte"))"]
        }
        lines[0] = "#\(d.number) \(arrow) \(lines[0])    [\(time)]"
        return lines.joined(separator: "\n")
    }

    static func channelName(_ channel: UInt16) -> String? {
        switch channel {
        case L2CAPChannelIdentifier.attribute: return "ATT"
        case L2CAPChannelIdentifier.leSignaling: return "LE Signaling"
        case L2CAPChannelIdentifier.securityManager: return "SMP"
        default: return nil
        }
    }

    private static func command(_ packet: HCICommandPacket, _ decoded: Result<(any HCICommand)?, HCIDecodingError>) -> [String] {
        var lines = ["HCI Command: \(packet.opcode) plen \(packet.parameters.count)"]
        switch decoded {
        case let .success(command?):
            lines += ReflectedFields.lines(command, indent: "    ")
            if let data = advertisingData(in: command) {
                lines += DumpAD.textLines(data).map { "      " + $0 }
            }
        case .success(nil):
            if !packet.parameters.isEmpty { lines.append("    " + Hex.encode(packet.parameters, separator: " ")) }
        case let .failure(error):
            lines.append("    malformed parameters: \(error)")
        }
        return lines
    }

    /// The AD structures of LE Set (Extended) Advertising / Scan Response Data.
    private static func advertisingData(in command: any HCICommand) -> ArraySlice<UInt8>? {
        switch command {
        case let c as LESetAdvertisingData: return c.advertisingData
        case let c as LESetScanResponseData: return c.scanResponseData
        case let c as LESetExtendedAdvertisingData: return c.advertisingData
        case let c as LESetExtendedScanResponseData: return c.scanResponseData
        default: return nil
        }
    }

    /// Every line of `text` indented (one string: the caller joins lines with newlines).
    private static func indented(_ text: String, by indent: String) -> String {
        let pad = Array(indent.utf8)
        var out: [UInt8] = pad
        out.reserveCapacity(text.utf8.count + 4 * pad.count)
        var text = text
        text.withUTF8 { bytes in
            for b in bytes {
                out.append(b)
                if b == UInt8(ascii: "\n") { out += pad }
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func hex2(_ v: UInt8) -> String { "0x" + String(v, radix: 16).zeroPadded(to: 2) }

    private static func event(_ packet: HCIEventPacket, _ decoded: Result<HCIEvent, HCIDecodingError>) -> [String] {
        let event: HCIEvent
        switch decoded {
        case let .success(e): event = e
        case let .failure(error):
            var lines = ["HCI Event: \(hex2(packet.code)) plen \(packet.parameters.count)"]
            if packet.code == LEMetaEvent.code, let sub = packet.parameters.first { lines.append("    Subevent: \(hex2(sub))") }
            lines.append("    malformed: \(error)")
            return lines
        }
        if case let .leMeta(meta) = event {
            var lines = ["HCI Event: LE Meta (0x3e) plen \(packet.parameters.count)",
                         "    Subevent: \(meta.name) (\(hex2(packet.parameters.first ?? 0)))"]
            switch meta {
            case let .advertisingReport(r):
                lines += ReflectedFields.lines(r, indent: "    ")
                for (i, report) in r.reports.enumerated() {
                    lines.append("    Report [\(i)] advertising data:")
                    lines += DumpAD.textLines(report.data).map { "      " + $0 }
                }
            case let .extendedAdvertisingReport(r):
                lines += ReflectedFields.lines(r, indent: "    ")
                for (i, report) in r.reports.enumerated() {
                    lines.append("    Report [\(i)] advertising data:")
                    lines += DumpAD.textLines(report.data).map { "      " + $0 }
                }
            case let .unknown(_, parameters):
                lines.append("    " + Hex.encode(parameters, separator: " "))
            default:
                if let sub = meta.subevent { lines += ReflectedFields.lines(sub, indent: "    ") }
            }
            return lines
        }
        var lines = ["HCI Event: \(event.name) (\(hex2(packet.code))) plen \(packet.parameters.count)"]
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
        case let .numberOfCompletedPackets(e):
            // The most frequent event in a data transfer: the lines `ReflectedFields`
            // would print, written directly.
            lines.append("    Entries: \(String(count: e.entries.count, "entry", plural: "entries"))")
            for (i, entry) in e.entries.enumerated() {
                lines.append("      [\(i)]")
                lines.append("        Connection handle: \(entry.connectionHandle)")
                lines.append("        Num completed packets: \(entry.numCompletedPackets)")
            }
        case .unknown:
            lines.append("    " + Hex.encode(packet.parameters, separator: " "))
        default:
            if let parameters = event.event { lines += ReflectedFields.lines(parameters, indent: "    ") }
        }
        return lines
    }

    private static func acl(_ packet: ACLDataPacket, _ outcome: L2CAPRecombiner.Outcome, sent: Bool) -> [String] {
        var lines = ["ACL Data \(sent ? "TX" : "RX"): Handle \(packet.handle) flags \(hex2(packet.packetBoundary.rawValue)) dlen \(packet.data.count)"]
        if let dropped = outcome.dropped { lines.append("    L2CAP: \(dropped)") }
        guard let frame = outcome.frame else { return lines }
        lines.append("    L2CAP: \(channelName(frame.channel) ?? "channel") (0x\(String(frame.channel, radix: 16).zeroPadded(to: 4))) len \(frame.payload.count)")
        switch frame.channel {
        case L2CAPChannelIdentifier.attribute:
            do {
                let pdu = try ATTPDU(parsing: frame.payload)
                lines.append(indented(pdu.text, by: "      "))
            } catch {
                lines.append("      ATT: malformed: \(error)")
            }
        case L2CAPChannelIdentifier.securityManager:
            do {
                let pdu = try SMPPDU(decoding: frame.payload)
                lines.append("      SMP: \(pdu.code)")
                lines += ReflectedFields.lines(pdu, indent: "        ")
            } catch {
                lines.append("      SMP: malformed: \(error)")
            }
        case L2CAPChannelIdentifier.leSignaling:
            do {
                let signal = try LESignalingPacket(parsing: frame.payload)
                let command = try LESignalingCommand(signal)
                lines.append("      LE Signaling: \(command.code) ident \(signal.identifier)")
                lines += ReflectedFields.lines(command, indent: "        ")
            } catch {
                lines.append("      LE Signaling: malformed: \(error)")
            }
        default:
            lines.append("      " + Hex.encode(frame.payload, separator: " "))
        }
        return lines
    }
}
