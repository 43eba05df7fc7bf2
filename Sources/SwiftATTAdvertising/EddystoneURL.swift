import SwiftATTCore

/// Eddystone-URL: a compressed URL.
///
/// Frame type 0x10, the calibrated TX power at 0 m, a scheme prefix code (0x00
/// `http://www.`, 0x01 `https://www.`, 0x02 `http://`, 0x03 `https://`) and up to 17
/// octets of URL in which 0x00–0x0D stand for `.com/`, `.org/`, `.edu/`, `.net/`, `.info/`,
/// `.biz/`, `.gov/` and the same without the slash, and 0x21–0x7E are themselves. Other
/// octets are reserved, and a frame holding one does not decode.
public struct EddystoneURL: Hashable, Sendable, CustomStringConvertible {
    /// The frame type: the service data's first octet.
    public static let frameType: UInt8 = 0x10

    static let schemes = ["http://www.", "https://www.", "http://", "https://"]
    static let expansions = [
        ".com/", ".org/", ".edu/", ".net/", ".info/", ".biz/", ".gov/",
        ".com", ".org", ".edu", ".net", ".info", ".biz", ".gov",
    ]
    /// The longest encoded URL a frame carries.
    public static let maximumEncodedLength = 17

    /// Calibrated TX power at 0 m, in dBm.
    public var txPower: Int8
    /// 0x00–0x03.
    public let schemePrefix: UInt8
    /// The URL after the scheme, compressed.
    public let encodedURL: ArraySlice<UInt8>

    /// Decodes a frame, frame type first; `nil` for an unknown scheme or a reserved octet.
    public init?(frame: ArraySlice<UInt8>) {
        guard frame.count >= 3, frame.first == Self.frameType else { return nil }
        let scheme = frame.byte(at: 2)
        let url = frame.bytes(from: 3)
        guard Int(scheme) < Self.schemes.count,
              url.allSatisfy({ Int($0) < Self.expansions.count || (0x21...0x7E).contains($0) })
        else { return nil }
        txPower = Int8(bitPattern: frame.byte(at: 1))
        schemePrefix = scheme
        encodedURL = url
    }

    /// Compresses `url`. Throws when its scheme is not http or https, when it holds a
    /// character outside printable ASCII, or when it needs more than 17 octets.
    public init(url: String, txPower: Int8) throws(ADEncodingError) {
        let text = Array(url.utf8)
        // Longest prefix first: "https://www." before "https://".
        guard let (code, prefix) = [(UInt8(1), Self.schemes[1]), (0, Self.schemes[0]), (3, Self.schemes[3]), (2, Self.schemes[2])]
            .first(where: { text.starts(with: $0.1.utf8) })
        else { throw .unencodableEddystoneURL(url) }
        var out: [UInt8] = []
        var i = prefix.utf8.count
        nextCharacter: while i < text.count {
            for (code, expansion) in Self.expansions.enumerated() where text[i...].starts(with: expansion.utf8) {
                out.append(UInt8(code))
                i += expansion.utf8.count
                continue nextCharacter
            }
            guard (0x21...0x7E).contains(text[i]) else { throw .unencodableEddystoneURL(url) }
            out.append(text[i])
            i += 1
        }
        guard out.count <= Self.maximumEncodedLength else { throw .eddystoneURLTooLong(encodedLength: out.count) }
        self.txPower = txPower
        schemePrefix = code
        encodedURL = out[...]
    }

    /// The URL, expanded.
    public var url: String {
        var text = Self.schemes[Int(schemePrefix)]
        for b in encodedURL {
            if Int(b) < Self.expansions.count {
                text += Self.expansions[Int(b)]
            } else {
                text.unicodeScalars.append(Unicode.Scalar(b))
            }
        }
        return text
    }

    /// The frame as the Service Data under 0xFEAA carries it, frame type first.
    public var frameBytes: [UInt8] {
        [Self.frameType, UInt8(bitPattern: txPower), schemePrefix] + encodedURL
    }

    /// `Eddystone-URL https://www.example.com/, -20 dBm at 0 m`.
    public var description: String { "Eddystone-URL \(url), \(txPower) dBm at 0 m" }
}
