extension JSONValue {
    /// Compact one-line JSON: no whitespace, object keys in order, strings escaped as
    /// RFC 8259 requires (quote, backslash and U+0000–U+001F; everything else verbatim).
    /// A non-finite double, which JSON cannot spell, is written as `null`.
    public func serialized() -> String {
        var out = ""
        // An event line is rarely shorter: one allocation instead of a few regrowths.
        out.reserveCapacity(128)
        write(to: &out)
        return out
    }

    private func write(to out: inout String) {
        switch self {
        case .null:
            out += "null"
        case let .bool(b):
            out += b ? "true" : "false"
        case let .integer(i):
            out += String(i)
        case let .double(d):
            out += d.isFinite ? d.description : "null"
        case let .string(s):
            Self.writeString(s, to: &out)
        case let .array(elements):
            out += "["
            for (i, e) in elements.enumerated() {
                if i > 0 { out += "," }
                e.write(to: &out)
            }
            out += "]"
        case let .object(members):
            out += "{"
            for (i, m) in members.enumerated() {
                if i > 0 { out += "," }
                Self.writeString(m.key, to: &out)
                out += ":"
                m.value.write(to: &out)
            }
            out += "}"
        }
    }

    private static func writeString(_ s: String, to out: inout String) {
        out += "\""
        // Most strings (keys, hex values, names) need no escape: appended whole.
        if !s.utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }) {
            out += s
        } else {
            for scalar in s.unicodeScalars {
                switch scalar {
                case "\"": out += "\\\""
                case "\\": out += "\\\\"
                case "\n": out += "\\n"
                case "\r": out += "\\r"
                case "\t": out += "\\t"
                case "\u{08}": out += "\\b"
                case "\u{0C}": out += "\\f"
                case "\u{00}"..."\u{1F}": out += "\\u" + JSONParseError.hex4(scalar.value).lowercased()
                default: out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
    }
}

extension JSONValue: CustomStringConvertible {
    /// The compact serialization.
    public var description: String { serialized() }
}
