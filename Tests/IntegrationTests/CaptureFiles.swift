import Foundation
import SwiftATTHCI
import TestSupport

/// btsnoop files a test has its hosts write (`Controller.open(capturePath:)`), checked
/// after the run; with SWIFT_ATT_UPDATE_FIXTURES=1 they are copied into Fixtures/hci.
struct CaptureFiles {
    let names: [String]
    let paths: [String]

    init(names: [String]) {
        self.names = names
        let directory = FileManager.default.temporaryDirectory
        paths = names.map { directory.appendingPathComponent("\($0)-\(getpid()).btsnoop").path }
    }

    struct Decoded {
        /// Names of the commands sent, in order (every command's opcode is known).
        var commands: [String] = []
        /// Names of the events received (LE subevents by their own names).
        var events: [String] = []
    }

    /// Decodes every packet of capture `index`; throws on any packet that does not decode.
    func decoded(_ index: Int) throws -> Decoded {
        var result = Decoded()
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: paths[index])))
        for record in try BTSnoop.records(in: bytes) {
            switch record.packetType {
            case .command:
                let packet = try HCICommandPacket(parsing: record.packet)
                _ = try packet.decodedCommand()
                result.commands.append(packet.opcode.name ?? "unknown \(packet.opcode)")
            case .event:
                result.events.append(Self.name(try HCIEvent(parsing: record.packet)))
            case .aclData:
                _ = try ACLDataPacket(parsing: record.packet)
            default:
                break
            }
        }
        return result
    }

    static func name(_ event: HCIEvent) -> String {
        switch event {
        case .disconnectionComplete: return "Disconnection Complete"
        case .commandComplete: return "Command Complete"
        case .commandStatus: return "Command Status"
        case let .leMeta(meta):
            switch meta {
            case .connectionComplete, .enhancedConnectionComplete, .enhancedConnectionCompleteV2: return "LE Connection Complete"
            case .advertisingReport, .extendedAdvertisingReport: return "LE Advertising Report"
            default: return "LE Meta"
            }
        default: return "\(event.code)"
        }
    }

    func keepAsFixtures() {
        guard ProcessInfo.processInfo.environment["SWIFT_ATT_UPDATE_FIXTURES"] == "1" else { return }
        let directory = FixtureFiles.url("hci")
        for (name, path) in zip(names, paths) {
            let target = directory.appendingPathComponent(name + ".btsnoop")
            try? FileManager.default.removeItem(at: target)
            try? FileManager.default.copyItem(at: URL(fileURLWithPath: path), to: target)
        }
    }

    func remove() {
        for path in paths { try? FileManager.default.removeItem(atPath: path) }
    }
}
