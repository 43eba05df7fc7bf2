import SwiftATTCore
import SwiftATTProfiles

/// A Red Bear Labs light shield command as typed after `swift-att central light`: `3=on`,
/// `2=off`, or the two octets in hex. The argument check and the flow that sends the
/// commands read them the same way.
enum LightCommandText {
    static func parse(_ text: String) -> LightCommand? {
        let parts = text.lowercased().split(separator: "=")
        if parts.count == 2, let light = UInt8(parts[0]) {
            switch parts[1] {
            case "on", "1": return LightCommand(light: light, isOn: true)
            case "off", "0": return LightCommand(light: light, isOn: false)
            default: return nil
            }
        }
        guard let bytes = try? Hex.decode(text), bytes.count == 2 else { return nil }
        return try? LightCommand(decoding: bytes)
    }
}
