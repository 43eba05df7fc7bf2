import SwiftATTCore

/// A URI, its scheme compressed to one code point.
///
/// Core Specification Supplement Part A §1.18: UTF-8 text whose first character is a code
/// point from the Assigned Numbers "URI Scheme Name String Mapping" (U+0016 is `http:`,
/// U+0017 `https:`) standing for the scheme, and whose rest is the URI after the scheme.
/// U+0001 means "no compressed scheme": the whole URI follows. Like names, a URI never
/// fails to decode; `isValidUTF8` says whether the bytes were clean.
public struct URI: Hashable, Sendable, CustomStringConvertible {
    /// The data as sent: scheme code point, then the rest.
    public let bytes: ArraySlice<UInt8>

    @usableFromInline
    init(validated s: ADStructure) { bytes = s.data }

    /// The URI a structure holds; `nil` when the structure is of another type.
    public init?(_ s: ADStructure) {
        guard s.type == .uri else { return nil }
        self.init(validated: s)
    }

    /// The compressed form of `uri`: its scheme as a code point when the table has it,
    /// otherwise U+0001 and the whole text.
    public init(_ uri: String) {
        var out: [UInt8] = []
        let utf8 = Array(uri.utf8)
        if let colon = utf8.firstIndex(of: UInt8(ascii: ":")),
           let code = Self.codePoint(forScheme: String(decoding: utf8[...colon], as: UTF8.self)) {
            out.append(code)
            out.append(contentsOf: utf8[(colon + 1)...])
        } else {
            out.append(0x01)
            out.append(contentsOf: utf8)
        }
        bytes = out[...]
    }

    /// The first character's code point, which names the scheme; `nil` when the data does
    /// not start with valid UTF-8.
    public var schemeCodePoint: UInt32? { firstScalar?.scalar.value }

    /// The scheme the code point stands for (`"https:"`, or `""` for U+0001); `nil` when the
    /// code point is not one this table knows.
    public var scheme: String? { schemeCodePoint.flatMap { Self.scheme(forCodePoint: $0) } }

    /// The bytes after the scheme code point (the whole data when it is not valid UTF-8).
    public var remainder: ArraySlice<UInt8> {
        guard let first = firstScalar else { return bytes }
        return bytes.bytes(from: first.width)
    }

    /// The full URI text, when the scheme is known; invalid UTF-8 becomes U+FFFD.
    public var uri: String? {
        scheme.map { $0 + String(decoding: remainder, as: UTF8.self) }
    }

    /// Whether the URI's bytes are valid UTF-8, as Supplement Part A §1.18 requires.
    public var isValidUTF8: Bool { String(validating: bytes, as: UTF8.self) != nil }

    /// The URI, or `<U+00AB>//rest` when the scheme's code point is not in the table.
    public var description: String {
        if let uri { return uri }
        let rest = String(decoding: remainder, as: UTF8.self)
        guard let code = schemeCodePoint else { return rest }
        let hex = String(code, radix: 16, uppercase: true)
        return "<U+\(String(repeating: "0", count: max(0, 4 - hex.count)) + hex)>\(rest)"
    }

    private var firstScalar: (scalar: Unicode.Scalar, width: Int)? {
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        guard case let .scalarValue(scalar) = decoder.decode(&iterator) else { return nil }
        return (scalar, UTF8.width(scalar))
    }

    /// The Assigned Numbers URI scheme table, as far as this target names it: U+0001 and
    /// U+0002 (`aaa:`) through U+0017 (`https:`). Later code points decode as unknown.
    static func scheme(forCodePoint code: UInt32) -> String? {
        switch code {
        case 0x01: return ""
        case 0x02: return "aaa:"
        case 0x03: return "aaas:"
        case 0x04: return "about:"
        case 0x05: return "acap:"
        case 0x06: return "acct:"
        case 0x07: return "cap:"
        case 0x08: return "cid:"
        case 0x09: return "coap:"
        case 0x0A: return "coaps:"
        case 0x0B: return "crid:"
        case 0x0C: return "data:"
        case 0x0D: return "dav:"
        case 0x0E: return "dict:"
        case 0x0F: return "dns:"
        case 0x10: return "file:"
        case 0x11: return "ftp:"
        case 0x12: return "geo:"
        case 0x13: return "go:"
        case 0x14: return "gopher:"
        case 0x15: return "h323:"
        case 0x16: return "http:"
        case 0x17: return "https:"
        default: return nil
        }
    }

    static func codePoint(forScheme scheme: String) -> UInt8? {
        for code in UInt8(0x02)...0x17 where Self.scheme(forCodePoint: UInt32(code)) == scheme {
            return code
        }
        return nil
    }
}
