extension JSONValue {
    /// Compact one-line JSON: no whitespace, object keys in order, strings escaped as
    /// RFC 8259 requires (quote, backslash and U+0000–U+001F; everything else verbatim).
    /// A non-finite double, which JSON cannot spell, is written as `null`.
    public func serialized() -> String {
        // Built as UTF-8 bytes and made a String once: appending to a String checks its
        // capacity, uniqueness and breadcrumbs on every piece, and each string value was
        // scanned through String's UTF-8 view. `peripheral transfer --json` writes an
        // event per notification; callgrind counted 13,900 instructions an event before.
        var out: [UInt8] = []
        // An event line is rarely shorter: one allocation instead of a few regrowths.
        out.reserveCapacity(128)
        write(to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends the compact serialization to `out` (`JSONObjectWriter` writes a member's
    /// value with it).
    func write(to out: inout [UInt8]) {
        switch self {
        case .null:
            out.append(contentsOf: "null".utf8)
        case let .bool(b):
            out.append(contentsOf: (b ? "true" : "false").utf8)
        case let .integer(i):
            Self.writeInteger(i, to: &out)
        case let .double(d):
            out.append(contentsOf: (d.isFinite ? d.description : "null").utf8)
        case let .string(s):
            Self.writeString(s, to: &out)
        case let .array(elements):
            out.append(UInt8(ascii: "["))
            for (i, e) in elements.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                e.write(to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case let .object(members):
            out.append(UInt8(ascii: "{"))
            for (i, m) in members.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                Self.writeString(m.key, to: &out)
                out.append(UInt8(ascii: ":"))
                m.value.write(to: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// The string in quotes. What RFC 8259 requires escaping (quote, backslash,
    /// U+0000–U+001F) is ASCII, so the UTF-8 bytes are copied in runs between the bytes to
    /// escape, and every other byte goes verbatim. The scan takes eight bytes at a time
    /// (`escapeMask`), straight to the first byte to escape in them: a byte at a time it
    /// cost some 13 instructions a byte, and `central transfer --json` writes its whole
    /// text, a line break every 20 bytes, as one string.
    static func writeString(_ s: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var s = s
        s.withUTF8 { utf8 in
            out.reserveCapacity(out.count + utf8.count + 1)
            let bytes = UnsafeRawBufferPointer(utf8)
            var run = 0
            var i = 0
            while i < utf8.count {
                if utf8.count - i >= 8 {
                    let mask = escapeMask(UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self)))
                    if mask == 0 {
                        i += 8
                        continue
                    }
                    i += mask.trailingZeroBitCount / 8
                } else if !needsEscape(utf8[i]) {
                    i += 1
                    continue
                }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[run..<i]))
                escape(utf8[i], to: &out)
                i += 1
                run = i
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[run...]))
        }
        out.append(UInt8(ascii: "\""))
    }

    /// Whether RFC 8259 requires `b` escaped in a string: a control character, a quote
    /// or a backslash.
    @inline(__always)
    static func needsEscape(_ b: UInt8) -> Bool { b < 0x20 || b == 0x22 || b == 0x5C }

    /// A word of eight bytes, the first in the low octet: the high bit of each byte that
    /// is below 0x20, a quote or a backslash is set, by the bit tricks for "has a byte
    /// less than n" and "has a zero byte" (of the word XORed with the byte looked for).
    /// Zero exactly when no byte needs an escape; the lowest bit set is always a byte that
    /// does (a borrow can mark a byte above one that does, never below).
    @inline(__always)
    static func escapeMask(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        func zeroBytes(_ v: UInt64) -> UInt64 { (v &- ones) & ~v & highs }
        let control = (word &- ones &* 0x20) & ~word & highs
        return control | zeroBytes(word ^ (ones &* 0x22)) | zeroBytes(word ^ (ones &* 0x5C))
    }

    /// The decimal digits of `value`, made on the stack and appended at once: a
    /// `String` of them, made and copied, cost some 700 instructions a number in
    /// `peripheral transfer --json`'s chunk lines (`JSONObjectWriter`), this some 70.
    static func writeInteger(_ value: Int, to out: inout [UInt8]) {
        withIntegerText(value) { out.append(contentsOf: $0) }
    }

    /// Calls `body` with `value` in decimal (a minus sign first if negative), made on the
    /// stack: what `writeInteger` appends and `JSONObjectWriter` copies.
    static func withIntegerText<R>(_ value: Int, _ body: (UnsafeRawBufferPointer) -> R) -> R {
        var magnitude = value.magnitude
        // UInt.max has 20 digits; one more for the sign.
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 21) { digits in
            var start = 21
            repeat {
                start -= 1
                digits[start] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            if value < 0 {
                start -= 1
                digits[start] = UInt8(ascii: "-")
            }
            return body(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: digits[start...])))
        }
    }

    private static func escape(_ b: UInt8, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\\"))
        switch b {
        case 0x22: out.append(UInt8(ascii: "\""))
        case 0x5C: out.append(UInt8(ascii: "\\"))
        case 0x0A: out.append(UInt8(ascii: "n"))
        case 0x0D: out.append(UInt8(ascii: "r"))
        case 0x09: out.append(UInt8(ascii: "t"))
        case 0x08: out.append(UInt8(ascii: "b"))
        case 0x0C: out.append(UInt8(ascii: "f"))
        default:
            out.append(contentsOf: ("u" + JSONParseError.hex4(UInt32(b)).lowercased()).utf8)
        }
    }
}

extension JSONValue: CustomStringConvertible {
    /// The compact serialization.
    public var description: String { serialized() }
}
