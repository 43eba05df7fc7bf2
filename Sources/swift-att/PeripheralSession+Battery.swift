import SwiftATTJSON
import SwiftATTCore
import SwiftATTDatabaseFile
import SwiftATTGATT
import SwiftATTHost
import SwiftATTProfiles

// The battery (alone or beside heart-rate) and a --database file's writes.
extension PeripheralSession {
    /// battery: a line of standard input is a level to set ("42" or "42%").
    func setBatteryLevel(_ line: String) async {
        guard batteryLevel != nil else { return }
        let text = line.trimmingSpaces
        let digits = text.hasSuffix("%") ? String(text.dropLast()).trimmingSpaces : text
        guard let percent = UInt8(digits), percent <= 100 else {
            report.emit("ignored \(EventReport.quoted(line)): not a battery level (0 to 100)",
                        ["event": "input-ignored", "text": .string(line), "reason": "not a battery level (0 to 100)"])
            return
        }
        battery.set(percent)
        await publishBatteryLevel(cause: "set")
    }

    /// battery: one drain period passed.
    func drainBattery() async {
        guard batteryLevel != nil, battery.tick() != nil else { return }
        await publishBatteryLevel(cause: "drained")
    }

    /// Stores the level and notifies it to subscribers (`updateValue` does both; when the
    /// transmit queue is full the next change carries the news).
    private func publishBatteryLevel(cause: String) async {
        guard case let .running(peripheral) = state, let batteryLevel else { return }
        let level = battery.level
        let sent = peripheral.updateValue([level], for: batteryLevel)
        report.emit("battery level \(level) % (\(cause)\(sent ? "" : ", transmit queue full"))",
                    ["event": "battery", "level": .integer(Int(level)), "cause": .string(cause), "sent": .bool(sent)])
    }

    /// --database: a central wrote a value; the server has stored it.
    func fileWritten(_ write: DatabaseFile.Write) {
        let target = write.descriptor.map { "descriptor \(report.describe($0)) of " } ?? ""
        // The value as text too when it is printable UTF-8 (a label, a command word).
        let text: String? = String(validating: write.value, as: UTF8.self).flatMap { s in
            !s.isEmpty && s.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value != 0x7F } ? s : nil
        }
        let shown = write.value.isEmpty ? "empty value" : Hex.encode(write.value, separator: " ") + (text.map { " \(EventReport.quoted($0))" } ?? "")
        report.emit(
            "written \(target)\(report.describe(write.characteristic)): \(shown) (\(EventReport.bytes(write.value.count)), \(Self.name(of: write.kind)))",
            ["event": "written", "uuid": .string(write.characteristic.description),
             "name": report.name(of: write.characteristic).map { .string($0) } ?? .null,
             "descriptor": write.descriptor.map { .string($0.description) } ?? .null,
             "handle": .integer(Int(write.handle)), "value": .string(Hex.encode(write.value)),
             "text": text.map { .string($0) } ?? .null, "kind": .string(Self.name(of: write.kind))])
    }

    static func name(of kind: GATTWriteContext.Kind) -> String {
        switch kind {
        case .request: return "write request"
        case .command: return "write command"
        case .signedCommand: return "signed write command"
        case .queued: return "queued write"
        }
    }
}

extension String {
    /// Without leading and trailing spaces and tabs.
    fileprivate var trimmingSpaces: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
