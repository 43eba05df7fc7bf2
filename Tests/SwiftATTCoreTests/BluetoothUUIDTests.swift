import SwiftATTCore
import Testing

/// BluetoothUUID: Core 5.4 Vol 3 Part B §2.5.1 (16-, 32- and 128-bit UUIDs on the Base UUID).
@Suite("BluetoothUUID")
struct BluetoothUUIDTests {
    static let heartRate128: UInt128 = 0x0000_180D_0000_1000_8000_0080_5F9B_34FB
    static let nordicUART: UInt128 = 0x6E40_0001_B5A3_F393_E0A9_E50E_24DC_CA9E

    @Test("construction in each width keeps the width and expands onto the Base UUID")
    func construction() {
        let u16 = BluetoothUUID(0x180D)
        #expect(u16.width == .bits16)
        #expect(u16.uuid128 == Self.heartRate128)

        let u32 = BluetoothUUID(uuid32: 0x0000_180D)
        #expect(u32.width == .bits32)
        #expect(u32.uuid128 == Self.heartRate128)

        let u32Wide = BluetoothUUID(uuid32: 0x1234_5678)
        #expect(u32Wide.uuid128 == 0x1234_5678_0000_1000_8000_0080_5F9B_34FB)

        let u128 = BluetoothUUID(uuid128: Self.heartRate128)
        #expect(u128.width == .bits128, "a 128-bit UUID on the Base UUID stays 128 bits")
        #expect(u128.uuid128 == Self.heartRate128)

        #expect(BluetoothUUID.baseUUID == 0x0000_0000_0000_1000_8000_0080_5F9B_34FB)
        #expect(BluetoothUUID.Width.bits16.byteCount == 2)
        #expect(BluetoothUUID.Width.bits32.byteCount == 4)
        #expect(BluetoothUUID.Width.bits128.byteCount == 16)
    }

    @Test("equality, hashing and ordering use the 128-bit expansion, across widths")
    func equalityAcrossWidths() {
        let u16 = BluetoothUUID(0x180D)
        let u32 = BluetoothUUID(uuid32: 0x180D)
        let u128 = BluetoothUUID(uuid128: Self.heartRate128)
        #expect(u16 == u32)
        #expect(u16 == u128)
        #expect(u32 == u128)
        #expect(Set([u16, u32, u128]).count == 1)
        #expect(u16.hashValue == u128.hashValue)
        #expect(u16 != BluetoothUUID(0x180F))
        #expect(BluetoothUUID(0x180D) < BluetoothUUID(0x180F))
        #expect(!(u16 < u128) && !(u128 < u16))
        let dict: [BluetoothUUID: String] = [u16: "Heart Rate"]
        #expect(dict[u128] == "Heart Rate")
        #expect(BluetoothUUID(uuid128: Self.nordicUART) != BluetoothUUID(0x0001))
    }

    @Test("aliases: uuid16, uuid32, isBluetoothBased")
    func aliases() {
        let hr = BluetoothUUID(uuid128: Self.heartRate128)
        #expect(hr.isBluetoothBased)
        #expect(hr.uuid16 == 0x180D)
        #expect(hr.uuid32 == 0x180D)

        let wide32 = BluetoothUUID(uuid32: 0x0001_0000)
        #expect(wide32.isBluetoothBased)
        #expect(wide32.uuid16 == nil)
        #expect(wide32.uuid32 == 0x0001_0000)

        let nus = BluetoothUUID(uuid128: Self.nordicUART)
        #expect(!nus.isBluetoothBased)
        #expect(nus.uuid16 == nil)
        #expect(nus.uuid32 == nil)
    }

    @Test("shortened and widened")
    func shortenedAndWidened() {
        let hr128 = BluetoothUUID(uuid128: Self.heartRate128)
        #expect(hr128.shortened.width == .bits16)
        #expect(hr128.shortened == hr128)
        #expect(BluetoothUUID(uuid32: 0x180D).shortened.width == .bits16)
        #expect(BluetoothUUID(0x180D).shortened.width == .bits16)

        // No 16-bit alias: unchanged.
        let nus = BluetoothUUID(uuid128: Self.nordicUART)
        #expect(nus.shortened.width == .bits128)
        #expect(BluetoothUUID(uuid32: 0x1234_5678).shortened.width == .bits32)

        let widened = BluetoothUUID(0x2902).widened
        #expect(widened.width == .bits128)
        #expect(widened == BluetoothUUID(0x2902))
        #expect(widened.encoded() == [0xFB, 0x34, 0x9B, 0x5F, 0x80, 0x00, 0x00, 0x80, 0x00, 0x10, 0x00, 0x00, 0x02, 0x29, 0x00, 0x00])
    }

    @Test("text forms: uppercase, in the UUID's own width")
    func textOut() {
        #expect(BluetoothUUID(0x180D).description == "180D")
        #expect(BluetoothUUID(0x0001).description == "0001")
        #expect(BluetoothUUID(uuid32: 0x180D).description == "0000180D")
        #expect(BluetoothUUID(uuid32: 0x1234_ABCD).description == "1234ABCD")
        #expect(BluetoothUUID(uuid128: Self.heartRate128).description == "0000180D-0000-1000-8000-00805F9B34FB")
        #expect(BluetoothUUID(uuid128: Self.nordicUART).description == "6E400001-B5A3-F393-E0A9-E50E24DCCA9E")
        #expect(BluetoothUUID(uuid128: 0).description == "00000000-0000-0000-0000-000000000000")
    }

    @Test("text forms parse back, width following the text", arguments: [
        ("180D", BluetoothUUID.Width.bits16, "180D"),
        ("180d", .bits16, "180D"),
        ("0x180D", .bits16, "180D"),
        ("0X2a37", .bits16, "2A37"),
        ("0000180D", .bits32, "0000180D"),
        ("0x1234abcd", .bits32, "1234ABCD"),
        ("0000180D-0000-1000-8000-00805F9B34FB", .bits128, "0000180D-0000-1000-8000-00805F9B34FB"),
        ("6e400001-b5a3-f393-e0a9-e50e24dcca9e", .bits128, "6E400001-B5A3-F393-E0A9-E50E24DCCA9E"),
        ("6E400001B5A3F393E0A9E50E24DCCA9E", .bits128, "6E400001-B5A3-F393-E0A9-E50E24DCCA9E"),
    ])
    func textIn(_ text: String, width: BluetoothUUID.Width, canonical: String) throws {
        let u = try #require(BluetoothUUID(text))
        #expect(u.width == width)
        #expect(u.description == canonical)
        #expect(BluetoothUUID(u.description) == u)
        #expect(BluetoothUUID(u.description)?.width == width)
    }

    @Test("invalid text is rejected", arguments: [
        "", "0x", "18", "180", "180D0", "18 0D", "180G", "+180", "-180", "+18D", "0x+18D",
        "000180D", "0000180D0", "１８０Ｄ",
        "0000180D-0000-1000-8000-00805F9B34F", "0000180D-0000-1000-8000-00805F9B34FB0",
        "0000180D00-00-1000-8000-00805F9B34FB", "0000180D-0000-1000-800000805F9B34FB",
        "0000180D-0000-1000-8000-00805F9B34FG", "{0000180D-0000-1000-8000-00805F9B34FB}",
        "-180D", "18-0D",
    ])
    func invalidText(_ text: String) {
        #expect(BluetoothUUID(text) == nil, "\(text)")
    }

    @Test("wire bytes are little-endian in each width")
    func wireBytes() {
        #expect(BluetoothUUID(0x180D).encoded() == [0x0D, 0x18])
        #expect(BluetoothUUID(0x180D).encodedLength == 2)
        #expect(BluetoothUUID(uuid32: 0x1234_5678).encoded() == [0x78, 0x56, 0x34, 0x12])
        #expect(BluetoothUUID(uuid32: 0x1234_5678).encodedLength == 4)
        let nus = BluetoothUUID(uuid128: Self.nordicUART)
        #expect(nus.encoded() == [0x9E, 0xCA, 0xDC, 0x24, 0x0E, 0xE5, 0xA9, 0xE0, 0x93, 0xF3, 0xA3, 0xB5, 0x01, 0x00, 0x40, 0x6E])
        #expect(nus.encodedLength == 16)
    }

    @Test("decoding from wire bytes: 2, 4 or 16, width from the length")
    func fromWireBytes() {
        let u16 = BluetoothUUID(littleEndianBytes: [0x0D, 0x18])
        #expect(u16 == BluetoothUUID(0x180D))
        #expect(u16?.width == .bits16)
        let u32 = BluetoothUUID(littleEndianBytes: [0x78, 0x56, 0x34, 0x12])
        #expect(u32?.width == .bits32)
        #expect(u32?.uuid32 == 0x1234_5678)
        let nusBytes: [UInt8] = [0x9E, 0xCA, 0xDC, 0x24, 0x0E, 0xE5, 0xA9, 0xE0, 0x93, 0xF3, 0xA3, 0xB5, 0x01, 0x00, 0x40, 0x6E]
        let nus = BluetoothUUID(littleEndianBytes: nusBytes[...])
        #expect(nus?.uuid128 == Self.nordicUART)
        #expect(nus?.width == .bits128)
        // From a slice that does not start at index 0.
        let padded: [UInt8] = [0xFF, 0xFF, 0x0D, 0x18, 0xFF]
        #expect(BluetoothUUID(littleEndianBytes: padded[2..<4]) == BluetoothUUID(0x180D))
        for n in [0, 1, 3, 5, 8, 15, 17] {
            #expect(BluetoothUUID(littleEndianBytes: ArraySlice(repeating: 0, count: n)) == nil, "\(n) bytes")
        }
        for u in [BluetoothUUID(0x2803), BluetoothUUID(uuid32: 0xABCD_0123), BluetoothUUID(uuid128: Self.nordicUART)] {
            let back = BluetoothUUID(littleEndianBytes: u.encoded()[...])
            #expect(back == u)
            #expect(back?.width == u.width)
        }
    }

    @Test("assigned names")
    func assignedNames() {
        #expect(BluetoothUUID(0x180D).assignedName == "Heart Rate")
        #expect(BluetoothUUID(0x2A37).assignedName == "Heart Rate Measurement")
        #expect(BluetoothUUID(0x2803).assignedName == "Characteristic")
        #expect(BluetoothUUID(0x2902).assignedName == "Client Characteristic Configuration")
        #expect(BluetoothUUID(0x2800).assignedName == "Primary Service")
        #expect(BluetoothUUID(uuid128: Self.heartRate128).assignedName == "Heart Rate", "any width")
        #expect(BluetoothUUID(uuid32: 0x2A37).assignedName == "Heart Rate Measurement")
        #expect(BluetoothUUID(uuid128: Self.nordicUART).assignedName == "Nordic UART Service")
        #expect(BluetoothUUID("6E400002-B5A3-F393-E0A9-E50E24DCCA9E")?.assignedName == "Nordic UART RX")
        #expect(BluetoothUUID("6E400003-B5A3-F393-E0A9-E50E24DCCA9E")?.assignedName == "Nordic UART TX")

        #expect(BluetoothUUID(0xFFFF).assignedName == nil)
        #expect(BluetoothUUID(0x0000).assignedName == nil)
        #expect(BluetoothUUID(uuid32: 0x1234_5678).assignedName == nil)
        #expect(BluetoothUUID("7E57A7E1-5A17-4C0D-9E1F-000000000000")?.assignedName == nil)
    }

    @Test("assigned kinds")
    func assignedKinds() {
        #expect(BluetoothUUID(0x2800).assignedKind == .declaration)
        #expect(BluetoothUUID(0x2902).assignedKind == .descriptor)
        #expect(BluetoothUUID(0x180D).assignedKind == .service)
        #expect(BluetoothUUID(0x2A37).assignedKind == .characteristic)
        #expect(BluetoothUUID(0xFFFF).assignedKind == nil)
        #expect(BluetoothUUID(uuid128: Self.nordicUART).assignedKind == nil)
    }
}
