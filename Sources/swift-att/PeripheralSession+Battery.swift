import SwiftATTJSON
import SwiftATTCore
import SwiftATTHost
import SwiftATTProfiles

// The battery, alone or beside heart-rate.
extension PeripheralSession {
    /// battery: a line of standard input is a level to set ("42" or "42%").
    func setBatteryLevel(_ line: String) async {
        guard batteryLevel != nil else { return }
        let text = line.trimmingWhitespace
        let digits = text.hasSuffix("%") ? String(text.dropLast()).trimmingWhitespace : text
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
}
