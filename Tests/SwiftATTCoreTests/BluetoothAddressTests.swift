import SwiftATTCore
import Testing

/// BluetoothAddress: Core 5.4 Vol 6 Part B §1.3.
@Suite("BluetoothAddress")
struct BluetoothAddressTests {
    @Test("text out: most significant byte first, uppercase, colons")
    func textOut() {
        #expect(BluetoothAddress(0xC05A_1700_0002).description == "C0:5A:17:00:00:02")
        #expect(BluetoothAddress(0).description == "00:00:00:00:00:00")
        #expect(BluetoothAddress(0xFFFF_FFFF_FFFF).description == "FF:FF:FF:FF:FF:FF")
        #expect(BluetoothAddress(0x0A0B_0C0D_0E0F).description == "0A:0B:0C:0D:0E:0F")
    }

    @Test("text in: colons or dashes, either case", arguments: [
        ("C0:5A:17:00:00:02", UInt64(0xC05A_1700_0002)),
        ("c0:5a:17:00:00:02", 0xC05A_1700_0002),
        ("C0-5A-17-00-00-02", 0xC05A_1700_0002),
        ("00:00:00:00:00:00", 0),
        ("ff:FF:fF:Ff:ff:FF", 0xFFFF_FFFF_FFFF),
    ])
    func textIn(_ text: String, value: UInt64) throws {
        let a = try #require(BluetoothAddress(text))
        #expect(a.value == value)
        #expect(a.kind == .public)
        #expect(BluetoothAddress(a.description) == a)
        #expect(BluetoothAddress(text, kind: .random)?.kind == .random)
        #expect(BluetoothAddress(Substring(text)) == a)
    }

    @Test("invalid text is rejected", arguments: [
        "", "C0:5A:17:00:00", "C0:5A:17:00:00:02:03", "C0:5A:17:00:00:2", "C0:5A:17:00:00:002",
        "C05A17000002", "C0 5A 17 00 00 02", "C0:5A:17-00:00:02", "C0:5A:17:00:00:0G",
        "C0:5A:17:00:00:", ":C0:5A:17:00:00", "C0::5A:17:00:00:02",
        "+C:5A:17:00:00:02", "-0:5A:17:00:00:02", "C0:5A:17:00:00:+2", "0x:5A:17:00:00:02",
        "Ｃ0:5A:17:00:00:02",
    ])
    func invalidText(_ text: String) {
        #expect(BluetoothAddress(text) == nil, "\(text)")
    }

    @Test("wire order: least significant byte first")
    func wireOrder() {
        let a = BluetoothAddress(0xC05A_1700_0002, kind: .random)
        #expect(a.littleEndianBytes == [0x02, 0x00, 0x00, 0x17, 0x5A, 0xC0])
        #expect(a.encoded() == [0x02, 0x00, 0x00, 0x17, 0x5A, 0xC0])
        #expect(a.encodedLength == 6)
        let back = BluetoothAddress(littleEndianBytes: [0x02, 0x00, 0x00, 0x17, 0x5A, 0xC0], kind: .random)
        #expect(back == a)
        // From a slice that does not start at index 0.
        let padded: [UInt8] = [0xEE, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01, 0xEE]
        #expect(BluetoothAddress(littleEndianBytes: padded[1..<7], kind: .public).description == "01:02:03:04:05:06")
    }

    @Test("value keeps 48 bits; the kind is part of identity")
    func valueAndKind() {
        #expect(BluetoothAddress(0xFFFF_C05A_1700_0002).value == 0xC05A_1700_0002)
        let pub = BluetoothAddress(0xC05A_1700_0002, kind: .public)
        let rnd = BluetoothAddress(0xC05A_1700_0002, kind: .random)
        #expect(pub != rnd)
        #expect(Set([pub, rnd]).count == 2)
        #expect(BluetoothAddress.Kind.public.rawValue == 0)
        #expect(BluetoothAddress.Kind.random.rawValue == 1)
    }

    @Test("random subtypes from the two most significant bits", arguments: [
        (UInt64(0xC05A_1700_0002), BluetoothAddress.RandomSubtype.static),   // 0b11
        (0xFFFF_FFFF_FFFF, .static),
        (0x4000_0000_0001, .resolvablePrivate),                                // 0b01
        (0x7FFF_FFFF_FFFF, .resolvablePrivate),
        (0x0000_0000_0001, .nonResolvablePrivate),                             // 0b00
        (0x3FFF_FFFF_FFFF, .nonResolvablePrivate),
        (0x8000_0000_0000, .reserved),                                         // 0b10
        (0xBFFF_FFFF_FFFF, .reserved),
    ])
    func randomSubtypes(_ value: UInt64, subtype: BluetoothAddress.RandomSubtype) {
        #expect(BluetoothAddress(value, kind: .random).randomSubtype == subtype)
        #expect(BluetoothAddress(value, kind: .public).randomSubtype == nil, "public addresses have no subtype")
    }

    @Test("identity addresses: public but not zero, static random with mixed random bits", arguments: [
        (BluetoothAddress(0x00_1B_DC_01_02_03, kind: .public), true),
        (BluetoothAddress(0xFF_FF_FF_FF_FF_FF, kind: .public), true),
        (BluetoothAddress(0, kind: .public), false),
        (BluetoothAddress(0xC0_5A_17_00_00_02, kind: .random), true),
        (BluetoothAddress(0xC0_00_00_00_00_01, kind: .random), true),
        (BluetoothAddress(0xC0_00_00_00_00_00, kind: .random), false),   // random bits all 0
        (BluetoothAddress(0xFF_FF_FF_FF_FF_FF, kind: .random), false),   // random bits all 1
        (BluetoothAddress(0x4A_11_22_33_44_55, kind: .random), false),   // resolvable private
        (BluetoothAddress(0x0A_11_22_33_44_55, kind: .random), false),   // non-resolvable private
        (BluetoothAddress(0x8A_11_22_33_44_55, kind: .random), false),   // reserved
    ])
    func identityAddresses(_ address: BluetoothAddress, isIdentity: Bool) {
        #expect(address.isIdentityAddress == isIdentity, "\(address) \(address.kind)")
    }
}
