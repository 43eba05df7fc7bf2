import SwiftATTCore
import Synchronization
import SwiftATTHCI

/// Prints the stored fields of a decoded HCI structure, one per line, btmon-style:
/// `Connection handle: 64`. Used for commands and events, whose many types share no
/// printing code of their own; values print by type (addresses, statuses, bytes as hex,
/// enums by case, nested structures and lists indented).
enum ReflectedFields {
    static func lines(_ value: Any, indent: String) -> [String] {
        var out: [String] = []
        for child in Mirror(reflecting: value).children {
            guard let label = child.label, !label.hasPrefix("_") else { continue }
            append(label: words(label), value: child.value, indent: indent, to: &out)
        }
        return out
    }

    private static func append(label: String, value: Any, indent: String, to out: inout [String]) {
        if let text = scalar(value) {
            out.append("\(indent)\(label): \(text)")
            return
        }
        let mirror = Mirror(reflecting: value)
        if let collection = value as? any Collection {
            let elements = Array(collection.map { $0 as Any })
            out.append("\(indent)\(label): \(String(count: elements.count, "entry", plural: "entries"))")
            for (i, element) in elements.enumerated() {
                if let text = scalar(element) {
                    out.append("\(indent)  [\(i)] \(text)")
                } else {
                    out.append("\(indent)  [\(i)]")
                    out += lines(element, indent: indent + "    ")
                }
            }
            return
        }
        if mirror.displayStyle == .collection {
            out.append("\(indent)\(label): \(String(count: mirror.children.count, "entry", plural: "entries"))")
            for (i, element) in mirror.children.enumerated() {
                if let text = scalar(element.value) {
                    out.append("\(indent)  [\(i)] \(text)")
                } else {
                    out.append("\(indent)  [\(i)]")
                    out += lines(element.value, indent: indent + "    ")
                }
            }
            return
        }
        if mirror.displayStyle == .optional {
            if let some = mirror.children.first {
                append(label: label, value: some.value, indent: indent, to: &out)
            } else {
                out.append("\(indent)\(label): none")
            }
            return
        }
        if mirror.displayStyle == .enum, let payload = mirror.children.first {
            out.append("\(indent)\(label): \(payload.label ?? "")")
            out += lines(payload.value, indent: indent + "  ")
            return
        }
        out.append("\(indent)\(label):")
        out += lines(value, indent: indent + "  ")
    }

    /// A one-line rendering for leaf values, `nil` for structures to expand.
    private static func scalar(_ value: Any) -> String? {
        switch value {
        case let v as BluetoothAddress: return "\(v) (\(v.kind == .random ? "random" : "public"))"
        case let v as HCIStatus: return v.description
        case let v as HCIOpcode: return v.description
        case let v as ArraySlice<UInt8>: return v.isEmpty ? "(empty)" : Hex.encode(v, separator: " ")
        case let v as [UInt8]: return v.isEmpty ? "(empty)" : Hex.encode(v, separator: " ")
        case let v as Bool: return v ? "yes" : "no"
        case let v as any BinaryInteger: return String(describing: v)
        case let v as Double: return String(describing: v)
        case let v as String: return v
        case let v as any RawRepresentable:
            let mirror = Mirror(reflecting: value)
            if mirror.displayStyle == .enum { return "\(value) (0x\(String(describing: v.rawValue)))" }
            return "0x" + rawHex(v.rawValue)
        default:
            let mirror = Mirror(reflecting: value)
            if mirror.displayStyle == .enum, mirror.children.isEmpty { return "\(value)" }
            return nil
        }
    }

    private static func rawHex(_ raw: Any) -> String {
        switch raw {
        case let v as UInt8: return String(v, radix: 16)
        case let v as UInt16: return String(v, radix: 16)
        case let v as UInt32: return String(v, radix: 16)
        case let v as UInt64: return String(v, radix: 16)
        default: return String(describing: raw)
        }
    }

    /// Acronyms the spec writes in capitals.
    static let acronyms: Set<String> = [
        "HCI", "LMP", "LE", "ACL", "ISO", "PHY", "PHYS", "SID", "TX", "RX", "RSSI", "MTU", "CE", "BD", "ADDR",
        "ID", "UUID", "LTK", "EDIV", "RPA", "SCO", "OCF", "OGF", "AD",
    ]

    /// Labels already turned into words: there are a few hundred, and `dump` asks for
    /// each of them once per record.
    private static let wordsByLabel = Mutex<[String: String]>([:])

    /// `connectionHandle` → `Connection handle`; `leACLDataPacketLength` →
    /// `LE ACL data packet length`.
    static func words(_ label: String) -> String {
        if let known = wordsByLabel.withLock({ $0[label] }) { return known }
        let spelled = spell(label)
        wordsByLabel.withLock { $0[label] = spelled }
        return spelled
    }

    private static func spell(_ label: String) -> String {
        var tokens: [String] = []
        var current = ""
        let chars = Array(label)
        for (i, c) in chars.enumerated() {
            let previous: Character? = i > 0 ? chars[i - 1] : nil
            let next: Character? = i + 1 < chars.count ? chars[i + 1] : nil
            var boundary = false
            if let p = previous {
                if c.isUppercase && (p.isLowercase || p.isNumber) { boundary = true }
                if c.isUppercase && p.isUppercase && (next?.isLowercase ?? false) { boundary = true }
                if c.isNumber && p.isLetter { boundary = true }
            }
            if boundary, !current.isEmpty { tokens.append(current); current = "" }
            current.append(c)
        }
        if !current.isEmpty { tokens.append(current) }
        tokens = tokens.flatMap(splitAcronyms)
        return tokens.enumerated().map { i, token in
            if acronyms.contains(token.uppercased()) { return token.uppercased() }
            let lower = token.lowercased()
            return i == 0 ? lower.prefix(1).uppercased() + lower.dropFirst() : lower
        }.joined(separator: " ")
    }

    /// `LEACL` → `LE`, `ACL`: an all-capitals run made of known acronyms.
    private static func splitAcronyms(_ token: String) -> [String] {
        guard token.count > 2, token.allSatisfy(\.isUppercase), !acronyms.contains(token) else { return [token] }
        var parts: [String] = []
        var rest = Substring(token)
        while !rest.isEmpty {
            guard let match = acronyms.filter({ rest.hasPrefix($0) }).max(by: { $0.count < $1.count }) else { return [token] }
            parts.append(match)
            rest = rest.dropFirst(match.count)
        }
        return parts
    }
}
