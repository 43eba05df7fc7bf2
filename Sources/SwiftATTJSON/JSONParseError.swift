/// Why text is not JSON, and where: `offset` counts characters from the start (0-based).
public struct JSONParseError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong with the text.
    public enum Reason: Hashable, Sendable {
        /// The text ended where `expected` was due.
        case unexpectedEndOfInput(expected: String)
        /// A character that cannot start or continue what `expected` names.
        case unexpectedCharacter(Unicode.Scalar, expected: String)
        /// A backslash followed by something other than `"\/bfnrtu`.
        case invalidEscape(Unicode.Scalar)
        /// `\u` not followed by four hex digits.
        case invalidUnicodeEscape
        /// A `\uD800`–`\uDFFF` escape that is not half of a high–low pair.
        case unpairedSurrogate(UInt16)
        /// A raw control character (U+0000–U+001F) inside a string; it must be escaped.
        case controlCharacterInString(UInt8)
        /// A number that breaks the RFC 8259 grammar, with what is wrong.
        case invalidNumber(String)
        /// A number too large for a 64-bit double.
        case numberOutOfRange
        /// An object that names the same key twice.
        case duplicateKey(String)
        /// Arrays and objects nested deeper than `limit`.
        case nestingTooDeep(limit: Int)
    }

    /// What is wrong.
    public let reason: Reason
    /// Characters (grapheme clusters) before the fault.
    public let offset: Int

    /// An error for `reason`, found `offset` characters from the start.
    public init(_ reason: Reason, offset: Int) {
        self.reason = reason
        self.offset = offset
    }

    public var description: String {
        "\(reason) at offset \(offset)"
    }

    /// `'x'` for a printable character, `U+000A` otherwise. Visible to the package's other
    /// JSON readers, so that they name a bad character as the parser does.
    package static func quote(_ c: Unicode.Scalar) -> String {
        if c.value >= 0x20, c.value != 0x7F, c.value < 0x80 || c.properties.isAlphabetic {
            return "'\(Character(c))'"
        }
        return "U+\(hex4(c.value))"
    }

    static func hex4(_ v: UInt32) -> String {
        let s = String(v, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - s.count)) + s
    }
}

extension JSONParseError.Reason: CustomStringConvertible {
    /// What is wrong, without where: for a caller that locates the fault its own way
    /// (by line and column, say).
    public var description: String {
        switch self {
        case let .unexpectedEndOfInput(expected):
            return "unexpected end of input, expected \(expected)"
        case let .unexpectedCharacter(c, expected):
            return "unexpected character \(JSONParseError.quote(c)), expected \(expected)"
        case let .invalidEscape(c):
            return "invalid escape '\\\(JSONParseError.quote(c).dropFirst().dropLast())' in a string"
        case .invalidUnicodeEscape:
            return "invalid \\u escape: four hex digits must follow"
        case let .unpairedSurrogate(unit):
            return "unpaired UTF-16 surrogate \\u\(String(unit, radix: 16, uppercase: true)) in a string"
        case let .controlCharacterInString(byte):
            return "unescaped control character U+\(JSONParseError.hex4(UInt32(byte))) in a string"
        case let .invalidNumber(why):
            return "invalid number: \(why)"
        case .numberOutOfRange:
            return "number out of range of a 64-bit double"
        case let .duplicateKey(key):
            return "duplicate key \"\(key)\""
        case let .nestingTooDeep(limit):
            return "arrays and objects nested deeper than \(limit) levels"
        }
    }
}
