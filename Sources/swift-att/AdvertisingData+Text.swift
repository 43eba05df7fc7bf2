import SwiftATTAdvertising
import SwiftATTCore

extension AdvertisingData {
    /// The payload for people, in the spirit of btmon and nRF Connect: one line per AD
    /// structure with its type's name and decoded value, a beacon's fields indented below
    /// its structure, then the non-significant part when there is one.
    ///
    ///     Flags: LE General Discoverable Mode, BR/EDR Not Supported (0x06)
    ///     Complete List of 16-bit Service Class UUIDs: 0x180D Heart Rate, 0x180F Battery
    ///     Appearance: 0x0341 Heart Rate Sensor: Heart Rate Belt
    ///     Complete Local Name: "Polar H10 1234"
    var text: String {
        var lines: [String] = []
        for structure in self { lines += structure.textLines }
        if !padding.isEmpty {
            let size = String(count: padding.count, "byte")
            lines.append(paddingIsZero
                ? "Padding: \(size) of zeros"
                : "Padding: \(size), not all zero: \(ADText.bytes(padding))")
        }
        return lines.isEmpty ? "(no AD structures)" : lines.joined(separator: "\n")
    }
}

extension ADStructure {
    /// `Type Name: value`, then indented lines for a beacon the data carries.
    var textLines: [String] {
        let label = type.name ?? "Unknown AD type \(ADText.hex(type.rawValue, digits: 2))"
        var value: String
        var details: [String] = []
        switch item {
        case let .flags(f):
            value = f.names.isEmpty ? "none" : f.names.joined(separator: ", ")
            switch data.count {
            case 0: value += " (no octets)"
            case 1: value += " (\(ADText.hex(f.rawValue, digits: 2)))"
            default: value += " (\(ADText.bytes(data)))"
            }
        case let .serviceUUIDs(list):
            value = list.isEmpty ? "(none)" : list.map(ValueText.uuid).joined(separator: ", ")
        case let .localName(n):
            value = ADText.quoted(n.name)
            if !n.isValidUTF8 { value += " (invalid UTF-8: \(ADText.bytes(n.bytes)))" }
        case let .txPowerLevel(dBm):
            value = "\(dBm) dBm"
        case let .peripheralConnectionIntervalRange(r):
            value = "\(r) (\(ADText.hex(r.minimum, digits: 4))-\(ADText.hex(r.maximum, digits: 4)))"
        case let .serviceData(d):
            value = "\(ValueText.uuid(d.uuid)): \(ADText.bytes(d.data))"
            if let frame = d.eddystone {
                details = frame.textLines
            } else if d.uuid == EddystoneFrame.serviceUUID {
                details = ["(not a valid Eddystone frame)"]
            }
        case let .targetAddresses(list):
            value = list.isEmpty ? "(none)" : list.map(\.description).joined(separator: ", ")
        case let .appearance(a):
            value = ADText.appearance(a)
        case let .advertisingInterval(i):
            value = "\(i) (\(ADText.hex(i.units, digits: 2 * i.byteCount)))"
        case let .leBluetoothDeviceAddress(a):
            value = "\(a) (\(ADText.addressKind(a)))"
        case let .leRole(r):
            value = "\(r.name ?? "reserved") (\(ADText.hex(r.rawValue, digits: 2)))"
        case let .uri(u):
            value = ADText.escaped(u.description)
            if !u.isValidUTF8 { value += " (invalid UTF-8: \(ADText.bytes(u.bytes)))" }
        case let .manufacturerSpecificData(m):
            value = "\(m.companyIdentifier): \(ADText.bytes(m.data))"
            if let beacon = m.iBeacon { details = beacon.textLines }
        case .other:
            value = ADText.bytes(data)
        }
        return ["\(label): \(value)"] + details.map { "  " + $0 }
    }
}

extension IBeacon {
    var textLines: [String] {
        var t = FieldsText(title: "iBeacon")
        t.field("Proximity UUID", proximityUUID.description)
        t.field("Major", "\(major)")
        t.field("Minor", "\(minor)")
        t.field("Measured power", "\(measuredPower) dBm at 1 m")
        return t.rendered.split(separator: "\n").map(String.init)
    }
}

extension EddystoneFrame {
    var textLines: [String] {
        var t: FieldsText
        switch self {
        case let .uid(f):
            t = FieldsText(title: "Eddystone-UID")
            t.field("Namespace", Hex.encode(f.namespace))
            t.field("Instance", Hex.encode(f.instance))
            t.field("Tx power", "\(f.txPower) dBm at 0 m")
        case let .url(f):
            t = FieldsText(title: "Eddystone-URL")
            t.field("URL", f.url)
            t.field("Tx power", "\(f.txPower) dBm at 0 m")
        case let .tlm(f):
            t = FieldsText(title: "Eddystone-TLM")
            t.field("Battery voltage", f.batteryVoltage == 0 ? "not measured (0)" : "\(f.batteryVoltage) mV")
            t.field("Temperature", f.temperature.map { "\(ADText.decimal($0)) °C" } ?? "not measured (0x8000)")
            t.field("Advertising PDUs", "\(f.advertisingCount)")
            t.field("Time since power-on", "\(ADText.decimal(Double(f.uptime) / 10)) s")
        case let .eid(f):
            t = FieldsText(title: "Eddystone-EID")
            t.field("Identifier", Hex.encode(f.identifier))
            t.field("Tx power", "\(f.txPower) dBm at 0 m")
        }
        return t.rendered.split(separator: "\n").map(String.init)
    }
}

/// How advertising values read in the human form.
enum ADText {
    /// Bytes as btmon's hex dumps show them, `02 15 e2`; `(empty)` for none.
    static func bytes(_ bytes: ArraySlice<UInt8>) -> String {
        bytes.isEmpty ? "(empty)" : Hex.encode(bytes, separator: " ")
    }

    /// `0x0341`: uppercase, as the Advertising target prints assigned numbers.
    static func hex(_ value: some BinaryInteger, digits: Int) -> String {
        let s = String(value, radix: 16, uppercase: true)
        return "0x" + String(repeating: "0", count: max(0, digits - s.count)) + s
    }

    /// `0x0341 Heart Rate Sensor: Heart Rate Belt`, `0x0340 Generic Heart Rate Sensor`,
    /// `0x0347 Heart Rate Sensor: subcategory 7`.
    static func appearance(_ a: Appearance) -> String {
        let value = hex(a.rawValue, digits: 4)
        guard let category = a.categoryName else {
            return "\(value) category \(a.category), subcategory \(a.subcategory)"
        }
        if a.subcategory == 0 { return "\(value) \(a.name ?? category)" }
        return "\(value) \(category): \(a.name ?? "subcategory \(a.subcategory)")"
    }

    /// `public`, or `random, static` and the other random subtypes (Core 5.4 Vol 6 Part B §1.3.2).
    static func addressKind(_ a: BluetoothAddress) -> String {
        switch a.randomSubtype {
        case nil: return "public"
        case .static?: return "random, static"
        case .resolvablePrivate?: return "random, resolvable private"
        case .nonResolvablePrivate?: return "random, non-resolvable private"
        case .reserved?: return "random, reserved subtype"
        }
    }

    /// The text in double quotes, with `escaped`'s escapes and `\"`.
    static func quoted(_ text: String) -> String {
        "\"" + escaped(text, quote: true) + "\""
    }

    /// The text with quotes (when asked), backslashes and control characters escaped, so a
    /// name sent by a stranger cannot break the one-line-per-structure layout.
    static func escaped(_ text: String, quote: Bool = false) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"" where quote: out += "\\\""
            case "\\": out += "\\\\"
            case "\u{00}"..."\u{1F}", "\u{7F}"..."\u{9F}", "\u{2028}", "\u{2029}":
                out += "\\u{" + String(scalar.value, radix: 16) + "}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// `23.5`, `-1.25`, `1234`: at most three decimals, trailing zeros dropped.
    static func decimal(_ v: Double) -> String {
        let thousandths = Int64((v * 1000).rounded())
        let whole = String(thousandths.magnitude / 1000)
        var fraction = String(thousandths.magnitude % 1000)
        fraction = String(repeating: "0", count: 3 - fraction.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return (thousandths < 0 ? "-" : "") + whole + (fraction.isEmpty ? "" : "." + fraction)
    }
}
