/// Hexadecimal text for bytes, as people and captures write them.
///
/// Accepts `0a0300`, `0A 03 00`, `0a:03:00` and a leading `0x`: the forms that
/// btmon, Wireshark and nRF Connect print, so a user can paste any of them.
public enum Hex {
    /// `0x002a`: how swift-att prints an attribute or connection handle in messages,
    /// trees and errors (four lower-case digits, as btmon and Wireshark show them).
    public static func handle(_ handle: UInt16) -> String {
        let digits = String(handle, radix: 16)
        return "0x" + String(repeating: "0", count: 4 - digits.count) + digits
    }

    /// Why a hex string did not decode, with the character position (0-based) at fault.
    public enum DecodingError: Error, Equatable, Sendable, CustomStringConvertible {
        /// A character that is neither a hex digit nor an accepted separator, and its position.
        case invalidCharacter(Character, position: Int)
        /// The digits do not pair into whole bytes; the number of digits found.
        case oddNumberOfDigits(Int)

        public var description: String {
            switch self {
            case let .invalidCharacter(c, position):
                return "invalid hex character '\(c)' at position \(position)"
            case let .oddNumberOfDigits(n):
                return "odd number of hex digits (\(n)): each byte needs two"
            }
        }
    }

    /// The bytes spelled by `text`, ignoring spaces, colons, dashes and a leading `0x`.
    ///
    /// Read as UTF-8 bytes: every character it accepts is ASCII. Walked as `Character`s,
    /// each one was a grapheme break search and five string comparisons, some 10,000
    /// instructions for a 20-byte value (`decode att -` reads a capture's worth of lines).
    /// A byte it rejects is reported as the character it belongs to, counted in characters.
    public static func decode(_ text: String) throws(DecodingError) -> [UInt8] {
        let utf8 = text.utf8
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count / 2)
        var high: UInt8 = 0
        var digits = 0
        var index = utf8.startIndex
        if text.hasPrefix("0x") || text.hasPrefix("0X") { index = utf8.index(index, offsetBy: 2) }
        while index != utf8.endIndex {
            let b = utf8[index]
            let value: UInt8
            switch b {
            case 0x30...0x39: value = b &- 0x30
            case 0x41...0x46: value = b &- 0x41 &+ 10
            case 0x61...0x66: value = b &- 0x61 &+ 10
            case 0x20, 0x3A, 0x2D, 0x0A, 0x09:  // space : - newline tab
                utf8.formIndex(after: &index)
                continue
            default:
                throw invalidCharacter(in: text, at: index)
            }
            if digits & 1 == 1 {
                bytes.append(high << 4 | value)
            } else {
                high = value
            }
            digits += 1
            utf8.formIndex(after: &index)
        }
        if digits & 1 == 1 { throw .oddNumberOfDigits(digits) }
        return bytes
    }

    /// The character around the byte at `index`, and its position in characters.
    private static func invalidCharacter(in text: String, at index: String.Index) -> DecodingError {
        var start = text.startIndex
        var position = 0
        while case let next = text.index(after: start), next <= index {
            start = next
            position += 1
        }
        return .invalidCharacter(text[start], position: position)
    }

    /// Lowercase hex digits, two per byte, with `separator` between bytes.
    ///
    /// Written straight into the string's UTF-8 storage: a transfer or a dump prints a
    /// value's hex for every notification, and appending scalar by scalar cost more than
    /// sending the notification (on the kernel bench's emulated CPU, a large share of the
    /// notification rate).
    ///
    /// Inlinable, so that a caller in another module runs it specialized for its
    /// collection: unspecialized, each byte went through the collection's witness table
    /// (its iterator's `next`, an associated-type lookup), which callgrind counted at
    /// 10,000 instructions for a 20-byte value — more than a command round trip's host
    /// work, in `peripheral transfer --json`'s every chunk event.
    @inlinable
    public static func encode(_ bytes: some Collection<UInt8>, separator: String = "") -> String {
        let count = bytes.count
        guard count > 0 else { return "" }
        var separator = separator
        return separator.withUTF8 { between in
            let length = count * 2 + (count - 1) * between.count
            return String(unsafeUninitializedCapacity: length) { out in
                var i = 0
                for b in bytes {
                    if i > 0 {
                        for s in between { out[i] = s; i += 1 }
                    }
                    out[i] = digit(b >> 4)
                    out[i + 1] = digit(b & 0x0F)
                    i += 2
                }
                return i
            }
        }
    }

    /// Appends the lower-case hex digits of `bytes` to `out`, as `encode` spells them:
    /// for a writer of bytes (a JSON event line) that would otherwise make a `String`
    /// of them and copy it again.
    @inlinable
    public static func append(_ bytes: some Collection<UInt8>, to out: inout [UInt8]) {
        let count = bytes.count * 2
        guard count > 0 else { return }
        // Made in scratch memory (on the stack for a notification's value) and appended
        // in one copy: appending digit by digit checks capacity and uniqueness each time.
        withUnsafeTemporaryAllocation(byteCount: count, alignment: 1) { digits in
            write(bytes, into: digits)
            out.append(contentsOf: UnsafeRawBufferPointer(digits))
        }
    }

    /// Writes `bytes` as lower-case hex digits into the first `2 × bytes.count` bytes of
    /// `out`, which must hold them: for a line written into memory of its own
    /// (`JSONObjectWriter.member(_:unescapedCount:_:)`). Inlinable, as `append` is: from
    /// another module a generic function runs unspecialized, each byte through the
    /// collection's witness table.
    @inlinable
    public static func write(_ bytes: some Collection<UInt8>, into out: UnsafeMutableRawBufferPointer) {
        precondition(out.count >= bytes.count * 2, "no room for the hex digits")
        var i = 0
        for b in bytes {
            out[i] = digit(b >> 4)
            out[i &+ 1] = digit(b & 0x0F)
            i &+= 2
        }
    }

    /// The ASCII code of lower-case hex digit `v` (0–15).
    @inlinable @inline(__always)
    static func digit(_ v: UInt8) -> UInt8 {
        v < 10 ? 0x30 + v : 0x57 + v
    }
}
