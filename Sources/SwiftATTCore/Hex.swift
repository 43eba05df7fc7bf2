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
    public static func decode(_ text: String) throws(DecodingError) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count / 2)
        var high: UInt8? = nil
        var digits = 0
        var skipPrefix = text.hasPrefix("0x") || text.hasPrefix("0X")
        for (position, c) in text.enumerated() {
            if skipPrefix {
                if position == 1 { skipPrefix = false }
                continue
            }
            if c == " " || c == ":" || c == "-" || c == "\n" || c == "\t" { continue }
            guard let v = c.hexDigitValue, c.isASCII else {
                throw .invalidCharacter(c, position: position)
            }
            digits += 1
            if let h = high {
                bytes.append(h << 4 | UInt8(v))
                high = nil
            } else {
                high = UInt8(v)
            }
        }
        if high != nil { throw .oddNumberOfDigits(digits) }
        return bytes
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
