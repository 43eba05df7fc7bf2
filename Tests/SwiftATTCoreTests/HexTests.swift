import SwiftATTCore
import Testing

/// Hex: the text forms of bytes that btmon, Wireshark and nRF Connect print.
@Suite("Hex")
struct HexTests {
    @Test("handles print as four lower-case digits after 0x")
    func handles() {
        #expect(Hex.handle(0x0000) == "0x0000")
        #expect(Hex.handle(0x002A) == "0x002a")
        #expect(Hex.handle(0xFFFF) == "0xffff")
    }

    @Test("decodes the forms people paste", arguments: [
        ("0a0300", [UInt8]([0x0A, 0x03, 0x00])),
        ("0A0300", [0x0A, 0x03, 0x00]),
        ("0a 03 00", [0x0A, 0x03, 0x00]),
        ("0a:03:00", [0x0A, 0x03, 0x00]),
        ("0a-03-00", [0x0A, 0x03, 0x00]),
        ("0x0a0300", [0x0A, 0x03, 0x00]),
        ("0X0A0300", [0x0A, 0x03, 0x00]),
        ("0a\t03\n00", [0x0A, 0x03, 0x00]),
        ("  ff  ", [0xFF]),
        ("", []),
        ("0x", []),
        ("   ", []),
        ("00ff80", [0x00, 0xFF, 0x80]),
    ])
    func decodes(_ text: String, bytes: [UInt8]) throws {
        #expect(try Hex.decode(text) == bytes)
    }

    @Test("every byte value round-trips through encode and decode")
    func everyByte() throws {
        let all = Array(UInt8.min...UInt8.max)
        let text = Hex.encode(all)
        #expect(text.count == 512)
        #expect(text.hasPrefix("000102"))
        #expect(text.hasSuffix("fdfeff"))
        #expect(try Hex.decode(text) == all)
        #expect(try Hex.decode(text.uppercased()) == all)
    }

    @Test("encodes lowercase, two digits per byte, with an optional separator")
    func encodes() {
        #expect(Hex.encode([0x0A, 0x03, 0x00]) == "0a0300")
        #expect(Hex.encode([UInt8]()) == "")
        #expect(Hex.encode([0x0A, 0x03, 0x00], separator: " ") == "0a 03 00")
        #expect(Hex.encode([0xAB], separator: ":") == "ab")
        #expect(Hex.encode([0x01, 0x02], separator: ":") == "01:02")
        #expect(Hex.encode([0x01, 0x02, 0xFE], separator: ", ") == "01, 02, fe")
        #expect(Hex.encode([0x01, 0x02], separator: "·") == "01·02")
        #expect(Hex.encode([0x0A, 0xFF][1...]) == "ff")
        // Any collection of bytes: a slice, a reversed view.
        let bytes: [UInt8] = [0xDE, 0xAD, 0xBE, 0xEF]
        #expect(Hex.encode(bytes[1..<3]) == "adbe")
        #expect(Hex.encode(bytes.reversed()) == "efbeadde")
    }

    @Test("appends to bytes what encode spells, after what is there")
    func appends() {
        var out = Array("x=".utf8)
        Hex.append([0x0A, 0x03, 0xFF], to: &out)
        #expect(String(decoding: out, as: UTF8.self) == "x=0a03ff")
        Hex.append([UInt8](), to: &out)
        Hex.append([0xDE, 0xAD, 0xBE, 0xEF].reversed(), to: &out)
        #expect(String(decoding: out, as: UTF8.self) == "x=0a03ff" + "efbeadde")
        let all = (0...255).map(UInt8.init)
        var digits: [UInt8] = []
        Hex.append(all, to: &digits)
        #expect(String(decoding: digits, as: UTF8.self) == Hex.encode(all))
    }

    @Test("writes into memory what encode spells")
    func writesIntoMemory() {
        let all = (0...255).map(UInt8.init)
        let digits = [UInt8](unsafeUninitializedCapacity: 512) { buffer, count in
            Hex.write(all, into: UnsafeMutableRawBufferPointer(buffer))
            count = 512
        }
        #expect(String(decoding: digits, as: UTF8.self) == Hex.encode(all))
        let tail = [UInt8](unsafeUninitializedCapacity: 4) { buffer, count in
            Hex.write([0xDE, 0xAD, 0xBE, 0xEF].reversed().prefix(2), into: UnsafeMutableRawBufferPointer(buffer))
            count = 4
        }
        #expect(String(decoding: tail, as: UTF8.self) == "efbe")
    }

    @Test("invalid characters are reported with their position", arguments: [
        ("0g", Hex.DecodingError.invalidCharacter("g", position: 1)),
        ("0a0z", .invalidCharacter("z", position: 3)),
        ("0x0a0z", .invalidCharacter("z", position: 5)),
        ("0a,03", .invalidCharacter(",", position: 2)),
        ("x0", .invalidCharacter("x", position: 0)),
        ("0a0x03", .invalidCharacter("x", position: 3)),
        ("１２", .invalidCharacter("１", position: 0)),
        ("é0", .invalidCharacter("é", position: 0)),
        // A character of several bytes, or of several scalars, is named whole, at its
        // position in characters: a digit with a combining accent is not a digit.
        ("0a 😀 00", .invalidCharacter("😀", position: 3)),
        ("0a\u{301}0", .invalidCharacter("a\u{301}", position: 1)),
        ("0a\r\n03", .invalidCharacter("\r\n", position: 2)),
    ])
    func invalidCharacters(_ text: String, error: Hex.DecodingError) {
        #expect(throws: error) { try Hex.decode(text) }
    }

    @Test("an odd number of digits is reported with the count", arguments: [
        ("0", 1), ("0a0", 3), ("0x0a0", 3), ("0a 03 0", 5),
    ])
    func oddDigits(_ text: String, count: Int) {
        #expect(throws: Hex.DecodingError.oddNumberOfDigits(count)) { try Hex.decode(text) }
    }

    @Test("error descriptions")
    func descriptions() {
        #expect(Hex.DecodingError.invalidCharacter("g", position: 1).description == "invalid hex character 'g' at position 1")
        #expect(Hex.DecodingError.oddNumberOfDigits(3).description == "odd number of hex digits (3): each byte needs two")
    }
}
