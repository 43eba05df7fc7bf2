import SwiftATTAdvertising
import SwiftATTCore
import Testing

@Suite("Builder")
struct BuilderTests {
    @Test("builds the heart rate monitor vector from typed items")
    func buildsAVector() throws {
        var b = AdvertisingDataBuilder.legacy
        try b.append(.flags(.leGeneralDiscoverableLEOnly))
        try b.append(.serviceUUIDs(ServiceUUIDList([BluetoothUUID(0x180D), BluetoothUUID(0x180F)])))
        try b.append(.appearance(.heartRateBelt))
        let name = try b.appendLocalName("Polar H10 1234")
        #expect(name.isComplete)
        #expect(Hex.encode(b.bytes) == "02010605030d180f18031941030f09506f6c6172204831302031323334")
        #expect(b.remainingLength == 2)
        let parsed = try AdvertisingData(parsing: b.bytes)
        #expect(parsed == b.advertisingData)
        #expect(parsed.items == [
            .flags(.leGeneralDiscoverableLEOnly),
            .serviceUUIDs(try ServiceUUIDList([BluetoothUUID(0x180D), BluetoothUUID(0x180F)])),
            .appearance(.heartRateBelt),
            .localName(LocalName("Polar H10 1234")),
        ])
    }

    @Test("a 32nd byte is refused with tooLong(needed:limit:), leaving the builder as it was")
    func legacyOverflow() throws {
        var b = AdvertisingDataBuilder.legacy
        try b.append(.flags(.leGeneralDiscoverableLEOnly))                       // 3
        try b.append(.manufacturerSpecificData(ManufacturerSpecificData(companyIdentifier: .testing, data: [UInt8](repeating: 0xAB, count: 22))))  // 26 → 29
        #expect(b.bytes.count == 29 && b.remainingLength == 2)
        #expect(throws: ADEncodingError.tooLong(needed: 32, limit: 31)) { try b.append(.txPowerLevel(0)) }
        #expect(b.bytes.count == 29)
        try b.append(.flags([]))   // zero flags: two bytes, exactly fits
        #expect(b.bytes.count == 31 && b.remainingLength == 0)
        #expect(throws: ADEncodingError.tooLong(needed: 33, limit: 31)) { try b.append(.flags([])) }
        #expect(throws: ADEncodingError.tooLong(needed: 33, limit: 31)) {
            try AdvertisingData([.appearance(.genericPhone), .manufacturerSpecificData(ManufacturerSpecificData(companyIdentifier: .apple, data: [UInt8](repeating: 0, count: 25)))])
        }
    }

    @Test("append(contentsOf:) is all or nothing")
    func appendContentsOfIsAtomic() throws {
        var b = AdvertisingDataBuilder.legacy
        try b.append(.txPowerLevel(4))
        let before = b
        #expect(throws: ADEncodingError.self) {
            try b.append(contentsOf: [.appearance(.genericWatch), .localName(LocalName(String(repeating: "x", count: 30)))])
        }
        #expect(b == before)
    }

    @Test("the name is shortened to what fits, never splitting a character")
    func nameShortening() throws {
        var b = AdvertisingDataBuilder.legacy
        try b.append(.flags(.leGeneralDiscoverableLEOnly))
        try b.append(.serviceUUIDs(ServiceUUIDList([BluetoothUUID(uuid128: 0x6E40_0001_B5A3_F393_E0A9_E50E_24DC_CA9E)])))
        #expect(b.remainingLength == 10)
        let name = try b.appendLocalName("Nordic UART Sensor")
        #expect(!name.isComplete)
        #expect(name.name == "Nordic U")
        #expect(b.remainingLength == 0)
        let parsed = try AdvertisingData(parsing: b.bytes)
        #expect(parsed.localName == name)
        #expect(parsed.first(.shortenedLocalName) != nil && parsed.first(.completeLocalName) == nil)

        // "Café ☕️": é is 2 bytes, ☕️ is 6 (U+2615 U+FE0F): with 6 bytes of room only "Café" (5) fits.
        var small = AdvertisingDataBuilder(maximumLength: 8)
        let short = try small.appendLocalName("Café ☕️")
        #expect(short.name == "Café ")
        #expect(short.isValidUTF8)
        var smaller = AdvertisingDataBuilder(maximumLength: 6)
        #expect(try smaller.appendLocalName("Café ☕️").name == "Caf")

        // A name that fits exactly stays complete.
        var exact = AdvertisingDataBuilder(maximumLength: 7)
        #expect(try exact.appendLocalName("Hello").isComplete)

        // Nothing fits: the first character would need 3 bytes, 2 are left.
        var full = AdvertisingDataBuilder(maximumLength: 4)
        try full.append(.txPowerLevel(0))
        #expect(throws: ADEncodingError.tooLong(needed: 6, limit: 4)) { try full.appendLocalName("Hi") }
        #expect(full.bytes.count == 3)
        // An empty name is a complete name of zero bytes.
        var empty = AdvertisingDataBuilder.legacy
        #expect(try empty.appendLocalName("").isComplete)
        #expect(empty.bytes == [0x01, 0x09])
    }

    @Test("extended data: up to 1650 bytes in all and 254 data bytes per structure")
    func extendedLimits() throws {
        var b = AdvertisingDataBuilder.extended
        #expect(b.maximumLength == 1650)
        let full = ManufacturerSpecificData(companyIdentifier: .testing, data: [UInt8](repeating: 0x5A, count: 252))
        for _ in 0..<6 { try b.append(.manufacturerSpecificData(full)) }        // 6 × 256 = 1536
        #expect(b.bytes.count == 1536)
        let tooBig = ManufacturerSpecificData(companyIdentifier: .testing, data: [UInt8](repeating: 0, count: 253))
        #expect(throws: ADEncodingError.structureTooLong(.manufacturerSpecificData, dataLength: 255)) {
            try b.append(.manufacturerSpecificData(tooBig))
        }
        let rest = ManufacturerSpecificData(companyIdentifier: .testing, data: [UInt8](repeating: 1, count: 110))
        try b.append(.manufacturerSpecificData(rest))                              // 114 → 1650
        #expect(b.bytes.count == 1650 && b.remainingLength == 0)
        #expect(throws: ADEncodingError.tooLong(needed: 1652, limit: 1650)) { try b.append(.flags([])) }

        let parsed = try AdvertisingData(parsing: b.bytes)
        #expect(parsed.count == 7)
        #expect(parsed.manufacturerSpecificData.map(\.data.count) == [252, 252, 252, 252, 252, 252, 110])

        // In extended data a long name is capped at one structure, 254 bytes.
        var named = AdvertisingDataBuilder.extended
        let name = try named.appendLocalName(String(repeating: "n", count: 300))
        #expect(!name.isComplete && name.bytes.count == 254)
        #expect(named.bytes.count == 256)
    }

    @Test("structures are checked when made")
    func structureChecks() throws {
        #expect(throws: ADEncodingError.structureTooLong(ADType(0x33), dataLength: 255)) {
            try ADStructure(type: ADType(0x33), data: [UInt8](repeating: 0, count: 255))
        }
        let ok = try ADStructure(type: ADType(0x33), data: [UInt8](repeating: 0, count: 254))
        #expect(ok.encodedLength == 256 && ok.encoded()[0] == 0xFF)
        var b = AdvertisingDataBuilder.extended
        try b.append(ok)
        #expect(try AdvertisingData(parsing: b.bytes).first == ok)
    }

    @Test("typed values build the wire forms the Supplement gives")
    func typedValues() throws {
        func bytes(_ item: ADItem) -> String { Hex.encode(item.encoded()) }
        #expect(bytes(.flags([.leLimitedDiscoverableMode, .brEDRNotSupported])) == "020105")
        #expect(bytes(.flags([])) == "0101")
        #expect(bytes(.txPowerLevel(-127)) == "020a81")
        #expect(bytes(.peripheralConnectionIntervalRange(.init(minimum: 0x0018, maximum: 0x0028))) == "051218002800")
        #expect(bytes(.serviceUUIDs(try ServiceUUIDList([BluetoothUUID(0x180D)], kind: .incomplete))) == "03020d18")
        #expect(bytes(.serviceUUIDs(try ServiceUUIDList([BluetoothUUID(0x1812)], kind: .solicitation))) == "03141218")
        #expect(bytes(.serviceUUIDs(try ServiceUUIDList([BluetoothUUID(0x180D)], width: .bits32))) == "05050d180000")
        #expect(bytes(.serviceUUIDs(try ServiceUUIDList([BluetoothUUID(0x180D)], kind: .solicitation, width: .bits128)))
            == "1115fb349b5f80000080001000000d180000")
        #expect(bytes(.serviceUUIDs(try ServiceUUIDList([]))) == "0103")
        #expect(throws: ADEncodingError.uuidNotRepresentable(BluetoothUUID(uuid128: 0x6E40_0001_B5A3_F393_E0A9_E50E_24DC_CA9E), width: .bits16)) {
            try ServiceUUIDList([BluetoothUUID(0x180D), BluetoothUUID(uuid128: 0x6E40_0001_B5A3_F393_E0A9_E50E_24DC_CA9E)])
        }
        #expect(bytes(.serviceData(ServiceData(uuid: BluetoothUUID(0x180F), data: [0x64]))) == "04160f1864")
        #expect(bytes(.serviceData(ServiceData(uuid: BluetoothUUID(uuid32: 0x1234_5678), data: []))) == "052078563412")
        #expect(bytes(.targetAddresses(TargetAddressList([BluetoothAddress(0x0102_0304_0506)], kind: .random))) == "0718060504030201")
        #expect(bytes(.appearance(Appearance(category: 3, subcategory: 2))) == "0319c200")
        #expect(bytes(.advertisingInterval(AdvertisingInterval(units: 0x20))) == "031a2000")
        #expect(bytes(.advertisingInterval(AdvertisingInterval(units: 0x1_0000))) == "042f000001")
        #expect(bytes(.advertisingInterval(AdvertisingInterval(units: 0x100_0000))) == "052f00000001")
        #expect(AdvertisingInterval(units: 0x1_0000, byteCount: 2) == nil)
        #expect(bytes(.leBluetoothDeviceAddress(BluetoothAddress("C0:11:22:33:44:55", kind: .random)!)) == "081b5544332211c001")
        #expect(bytes(.leRole(.centralPreferred)) == "021c03")
        #expect(bytes(.uri(URI("https://www.bluetooth.com"))) == "1524172f2f7777772e626c7565746f6f74682e636f6d")
        #expect(bytes(.manufacturerSpecificData(ManufacturerSpecificData(companyIdentifier: .google, data: [1]))) == "04ffe00001")
        #expect(bytes(.localName(LocalName("Tag", isComplete: false))) == "0408546167")
    }
}
