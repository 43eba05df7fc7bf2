import SwiftATTJSON
import SwiftATTCore
import SwiftATTProfiles

/// Characteristic values as people and scripts read them: decoded for the
/// characteristics a central meets most (heart rate, battery, the Device Information
/// strings, the seeds' text), hex with printable text otherwise.
enum CentralValueText {
    /// Characteristics whose value is UTF-8 text: GAP Device Name, Device Information's
    /// strings, the HC-08's serial data and seed 000's transfer chunks.
    static let textual: Set<BluetoothUUID> = [
        BluetoothUUID(0x2A00), BluetoothUUID(0x2A24), BluetoothUUID(0x2A25), BluetoothUUID(0x2A26),
        BluetoothUUID(0x2A27), BluetoothUUID(0x2A28), BluetoothUUID(0x2A29),
        SerialModuleProfile.characteristic, TransferProfile.characteristic,
    ]

    /// `72 bpm, contact detected`, `85 %`, `"HC-08"`, or nil when nothing better than hex.
    static func decoded(_ value: [UInt8], uuid: BluetoothUUID) -> String? {
        switch uuid {
        case HeartRateProfile.measurement:
            guard let m = try? HeartRateMeasurement(decoding: value) else { return nil }
            return heartRate(m)
        case HeartRateProfile.bodySensorLocation:
            return (try? BodySensorLocation(decoding: value[...]))?.name
        case BluetoothUUID(0x2A19):
            return value.count == 1 ? "\(value[0]) %" : nil
        case LightShieldProfile.rx, LightShieldProfile.tx:
            return (try? LightCommand(decoding: value))?.description
        case _ where textual.contains(uuid):
            return EventReport.quoted(String(decoding: value, as: UTF8.self))
        default:
            return nil
        }
    }

    /// The decoded form, then the hex: `72 bpm (06 48)`; hex (and ASCII) alone otherwise.
    /// With `compact`, a value past 32 octets shows its first 32 and its length.
    static func text(_ value: [UInt8], uuid: BluetoothUUID, compact: Bool = false) -> String {
        if compact, value.count > 32, decoded(value, uuid: uuid) == nil {
            return Hex.encode(value.prefix(32)) + "… (\(value.count) bytes)"
        }
        let hex = value.isEmpty ? "(empty)" : Hex.encode(value, separator: " ")
        guard let decoded = decoded(value, uuid: uuid) else { return ValueText.bytes(value[...]).joined(separator: "  ") }
        return "\(decoded)  (\(hex))"
    }

    static func heartRate(_ m: HeartRateMeasurement) -> String {
        var parts = ["\(m.beatsPerMinute) bpm"]
        switch m.sensorContact {
        case .detected: parts.append("contact detected")
        case .notDetected: parts.append("no contact")
        case .notSupported: break
        }
        if let energy = m.energyExpended { parts.append("energy \(energy) kJ") }
        if !m.rrIntervals.isEmpty {
            parts.append("RR " + m.rrIntervalsInMilliseconds.map { "\(Int($0.rounded())) ms" }.joined(separator: ", "))
        }
        return parts.joined(separator: ", ")
    }

    /// The JSON members for a value: hex always, then what it decodes to.
    static func json(_ value: [UInt8], uuid: BluetoothUUID) -> [JSONMember] {
        var members = [JSONMember("value", .string(Hex.encode(value)))]
        switch uuid {
        case HeartRateProfile.measurement:
            if let m = try? HeartRateMeasurement(decoding: value) { members += heartRateJSON(m) }
        case BluetoothUUID(0x2A19) where value.count == 1:
            members.append(JSONMember("percent", .integer(Int(value[0]))))
        case _ where textual.contains(uuid):
            members.append(JSONMember("text", .string(String(decoding: value, as: UTF8.self))))
        default:
            if !value.isEmpty, ValueText.printable(value[...]) != nil {
                members.append(JSONMember("text", .string(String(decoding: value, as: UTF8.self))))
            }
        }
        return members
    }

    static func heartRateJSON(_ m: HeartRateMeasurement) -> [JSONMember] {
        var members = [JSONMember("bpm", .integer(Int(m.beatsPerMinute))),
                       JSONMember("format", .string(m.format == .uint16 ? "uint16" : "uint8"))]
        switch m.sensorContact {
        case .detected: members.append(JSONMember("contact", .bool(true)))
        case .notDetected: members.append(JSONMember("contact", .bool(false)))
        case .notSupported: break
        }
        if let energy = m.energyExpended { members.append(JSONMember("energy", .integer(Int(energy)))) }
        if !m.rrIntervals.isEmpty { members.append(JSONMember("rr", .array(m.rrIntervals.map { .integer(Int($0)) }))) }
        return members
    }
}
