extension JSONValue {
    /// How deeply arrays and objects may nest before `parse` gives up (rather than
    /// exhausting the stack on hostile input).
    public static let maximumNestingDepth = 256

    /// Parses exactly one JSON value (RFC 8259), with optional whitespace around it.
    ///
    /// Strict: no comments, trailing commas, single quotes, leading zeros, `NaN`, or
    /// unpaired surrogate escapes; duplicate object keys are rejected. Never traps.
    public static func parse(_ text: String) throws(JSONParseError) -> JSONValue {
        var text = text
        let result = text.withUTF8 { bytes in
            Result { () throws(JSONParser.Failure) -> JSONValue in
                var parser = JSONParser(bytes)
                return try parser.parseDocument()
            }
        }
        switch result {
        case let .success(value):
            return value
        case let .failure(failure):
            // Report characters, not UTF-8 bytes; failures sit on scalar boundaries.
            let prefix = text.utf8.prefix(failure.byteOffset)
            throw JSONParseError(failure.reason, offset: String(decoding: prefix, as: UTF8.self).count)
        }
    }
}

/// A recursive-descent parser over UTF-8 bytes that the caller keeps alive.
struct JSONParser {
    struct Failure: Error {
        var reason: JSONParseError.Reason
        var byteOffset: Int
    }

    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    private var depth = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    mutating func parseDocument() throws(Failure) -> JSONValue {
        skipWhitespace()
        let value = try parseValue()
        skipWhitespace()
        if index < bytes.count { throw unexpected(expected: "end of input") }
        return value
    }

    // MARK: Values

    private mutating func parseValue() throws(Failure) -> JSONValue {
        guard index < bytes.count else { throw Failure(reason: .unexpectedEndOfInput(expected: "a value"), byteOffset: index) }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try parseLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try parseLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try parseLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw unexpected(expected: "a value")
        }
    }

    private mutating func parseLiteral(_ word: StaticString) throws(Failure) {
        let start = index
        for i in 0..<word.utf8CodeUnitCount {
            let want = word.utf8Start[i]
            guard start + i < bytes.count else {
                throw Failure(reason: .unexpectedEndOfInput(expected: "'\(word)'"), byteOffset: start + i)
            }
            guard bytes[start + i] == want else {
                index = start + i
                throw unexpected(expected: "'\(word)'")
            }
        }
        index = start + word.utf8CodeUnitCount
    }

    private mutating func enter() throws(Failure) {
        depth += 1
        if depth > JSONValue.maximumNestingDepth {
            throw Failure(reason: .nestingTooDeep(limit: JSONValue.maximumNestingDepth), byteOffset: index)
        }
    }

    private mutating func parseArray() throws(Failure) -> JSONValue {
        try enter()
        index += 1  // [
        var elements: [JSONValue] = []
        skipWhitespace()
        if peek() == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try parseValue())
            skipWhitespace()
            guard let b = peek() else { throw endOfInput(expected: "',' or ']'") }
            index += 1
            if b == UInt8(ascii: ",") { continue }
            if b == UInt8(ascii: "]") { break }
            index -= 1
            throw unexpected(expected: "',' or ']' after an array element")
        }
        depth -= 1
        return .array(elements)
    }

    private mutating func parseObject() throws(Failure) -> JSONValue {
        try enter()
        index += 1  // {
        var members: [JSONMember] = []
        var keys: Set<String> = []
        skipWhitespace()
        if peek() == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            let keyOffset = index
            guard let b = peek() else { throw endOfInput(expected: "a string key") }
            guard b == UInt8(ascii: "\"") else { throw unexpected(expected: "a string key") }
            let key = try parseString()
            guard keys.insert(key).inserted else {
                throw Failure(reason: .duplicateKey(key), byteOffset: keyOffset)
            }
            skipWhitespace()
            guard let colon = peek() else { throw endOfInput(expected: "':'") }
            guard colon == UInt8(ascii: ":") else { throw unexpected(expected: "':' after a key") }
            index += 1
            skipWhitespace()
            members.append(JSONMember(key, try parseValue()))
            skipWhitespace()
            guard let next = peek() else { throw endOfInput(expected: "',' or '}'") }
            index += 1
            if next == UInt8(ascii: ",") { continue }
            if next == UInt8(ascii: "}") { break }
            index -= 1
            throw unexpected(expected: "',' or '}' after an object member")
        }
        depth -= 1
        return .object(members)
    }

    // MARK: Strings

    private mutating func parseString() throws(Failure) -> String {
        index += 1  // opening quote
        var out: [UInt8] = []
        var runStart = index
        while true {
            guard index < bytes.count else { throw endOfInput(expected: "'\"' to close the string") }
            let b = bytes[index]
            if b == UInt8(ascii: "\"") {
                out.append(contentsOf: bytes[runStart..<index])
                index += 1
                return String(decoding: out, as: UTF8.self)
            }
            if b < 0x20 {
                throw Failure(reason: .controlCharacterInString(b), byteOffset: index)
            }
            if b == UInt8(ascii: "\\") {
                out.append(contentsOf: bytes[runStart..<index])
                try parseEscape(into: &out)
                runStart = index
                continue
            }
            index += 1
        }
    }

    /// Reads one escape starting at the backslash and appends its UTF-8 bytes.
    private mutating func parseEscape(into out: inout [UInt8]) throws(Failure) {
        let start = index
        index += 1
        guard index < bytes.count else { throw endOfInput(expected: "an escape character") }
        let c = bytes[index]
        index += 1
        switch c {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(c)
        case UInt8(ascii: "b"): out.append(0x08)
        case UInt8(ascii: "f"): out.append(0x0C)
        case UInt8(ascii: "n"): out.append(0x0A)
        case UInt8(ascii: "r"): out.append(0x0D)
        case UInt8(ascii: "t"): out.append(0x09)
        case UInt8(ascii: "u"):
            let unit = try parseHex4(escapeStart: start)
            var scalarValue = UInt32(unit)
            switch unit {
            case 0xD800...0xDBFF:
                // A high surrogate must be followed at once by an escaped low surrogate.
                guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                    throw Failure(reason: .unpairedSurrogate(unit), byteOffset: start)
                }
                let lowStart = index
                index += 2
                let low = try parseHex4(escapeStart: lowStart)
                guard (0xDC00...0xDFFF).contains(low) else {
                    throw Failure(reason: .unpairedSurrogate(unit), byteOffset: start)
                }
                scalarValue = 0x10000 + (UInt32(unit - 0xD800) << 10) + UInt32(low - 0xDC00)
            case 0xDC00...0xDFFF:
                throw Failure(reason: .unpairedSurrogate(unit), byteOffset: start)
            default:
                break
            }
            guard let scalar = Unicode.Scalar(scalarValue) else {
                throw Failure(reason: .invalidUnicodeEscape, byteOffset: start)
            }
            UTF8.encode(scalar) { out.append($0) }
        default:
            index -= 1
            throw Failure(reason: .invalidEscape(scalar(at: index)), byteOffset: start)
        }
    }

    private mutating func parseHex4(escapeStart: Int) throws(Failure) -> UInt16 {
        var value: UInt16 = 0
        for _ in 0..<4 {
            guard index < bytes.count, let digit = Self.hexValue(bytes[index]) else {
                throw Failure(reason: .invalidUnicodeEscape, byteOffset: escapeStart)
            }
            value = value << 4 | UInt16(digit)
            index += 1
        }
        return value
    }

    private static func hexValue(_ b: UInt8) -> UInt8? {
        switch b {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return b - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return b - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return b - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    // MARK: Numbers

    private mutating func parseNumber() throws(Failure) -> JSONValue {
        let start = index
        var isInteger = true
        if peek() == UInt8(ascii: "-") { index += 1 }
        guard let first = peek() else { throw endOfInput(expected: "a digit") }
        if first == UInt8(ascii: "0") {
            index += 1
            if let next = peek(), Self.isDigit(next) {
                throw Failure(reason: .invalidNumber("leading zero"), byteOffset: index)
            }
        } else if Self.isDigit(first) {
            skipDigits()
        } else {
            throw unexpected(expected: "a digit after '-'")
        }
        if peek() == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard let d = peek(), Self.isDigit(d) else {
                throw failure(at: index, number: "a digit must follow '.'")
            }
            skipDigits()
        }
        if let e = peek(), e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            if let sign = peek(), sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { index += 1 }
            guard let d = peek(), Self.isDigit(d) else {
                throw failure(at: index, number: "a digit must follow the exponent")
            }
            skipDigits()
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if isInteger, let value = Int(text) { return .integer(value) }
        guard let value = Double(text), value.isFinite else {
            throw Failure(reason: .numberOutOfRange, byteOffset: start)
        }
        return .double(value)
    }

    private func failure(at offset: Int, number why: String) -> Failure {
        Failure(reason: .invalidNumber(why), byteOffset: offset)
    }

    private static func isDigit(_ b: UInt8) -> Bool {
        b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")
    }

    private mutating func skipDigits() {
        while index < bytes.count, Self.isDigit(bytes[index]) { index += 1 }
    }

    // MARK: Helpers

    private func peek() -> UInt8? {
        index < bytes.count ? bytes[index] : nil
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private func endOfInput(expected: String) -> Failure {
        Failure(reason: .unexpectedEndOfInput(expected: expected), byteOffset: index)
    }

    private func unexpected(expected: String) -> Failure {
        Failure(reason: .unexpectedCharacter(scalar(at: index), expected: expected), byteOffset: index)
    }

    /// The Unicode scalar starting at byte `offset` (the input is valid UTF-8).
    private func scalar(at offset: Int) -> Unicode.Scalar {
        var iterator = bytes[offset...].makeIterator()
        var decoder = UTF8()
        if case let .scalarValue(s) = decoder.decode(&iterator) { return s }
        return "\u{FFFD}"
    }
}
