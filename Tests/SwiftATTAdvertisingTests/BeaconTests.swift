import SwiftATTAdvertising
import SwiftATTCore
import Testing

@Suite("Beacons")
struct BeaconTests {
    let uuid = BluetoothUUID("E2C56DB5-DFFB-48D2-B060-D0F5A71096E0")!

    @Test("iBeacon builds the well-known example advertisement")
    func iBeaconBuilds() throws {
        let beacon = IBeacon(proximityUUID: uuid, major: 1, minor: 2, measuredPower: -59)
        var b = AdvertisingDataBuilder.legacy
        try b.append(.flags(.leGeneralDiscoverableLEOnly))
        try b.append(.manufacturerSpecificData(beacon.manufacturerSpecificData))
        #expect(Hex.encode(b.bytes) == "0201061aff4c000215e2c56db5dffb48d2b060d0f5a71096e000010002c5")
        #expect(try AdvertisingData(parsing: b.bytes).iBeacon == beacon)
        #expect(beacon.description == "iBeacon E2C56DB5-DFFB-48D2-B060-D0F5A71096E0 major 1 minor 2, -59 dBm at 1 m")
    }

    @Test("iBeacon: big-endian major and minor, extreme values")
    func iBeaconByteOrder() throws {
        let beacon = IBeacon(proximityUUID: uuid, major: 0x1234, minor: 0xFFFF, measuredPower: -128)
        let data = Array(beacon.manufacturerSpecificData.data)
        #expect(Array(data[18...]) == [0x12, 0x34, 0xFF, 0xFF, 0x80])
        #expect(IBeacon(beacon.manufacturerSpecificData) == beacon)
    }

    @Test("not an iBeacon: wrong company, type, length octet or size — nil, data kept")
    func notIBeacon() {
        let good = Array(IBeacon(proximityUUID: uuid, major: 1, minor: 2, measuredPower: -59).manufacturerSpecificData.data)
        #expect(IBeacon(ManufacturerSpecificData(companyIdentifier: .microsoft, data: good)) == nil)
        var badType = good; badType[0] = 0x03
        #expect(IBeacon(ManufacturerSpecificData(companyIdentifier: .apple, data: badType)) == nil)
        var badLength = good; badLength[1] = 0x14
        #expect(IBeacon(ManufacturerSpecificData(companyIdentifier: .apple, data: badLength)) == nil)
        for n in 0..<good.count {
            #expect(IBeacon(ManufacturerSpecificData(companyIdentifier: .apple, data: Array(good.prefix(n)))) == nil)
        }
        #expect(IBeacon(ManufacturerSpecificData(companyIdentifier: .apple, data: good + [0])) == nil)
    }

    @Test("Eddystone-URL compresses schemes and expansions", arguments: [
        ("https://www.example.com/", "01" + "6578616d706c65" + "00"),
        ("http://www.example.org", "00" + "6578616d706c65" + "08"),
        ("http://goo.gl/S6zT6P", "02" + "676f6f2e676c2f53367a543650"),
        ("https://a.info/b.gov", "03" + "61" + "04" + "62" + "0d"),
        ("https://x.biz/.edu/.net", "03" + "78" + "05" + "02" + "0a"),
        ("https://", "03"),
    ])
    func eddystoneURLEncodes(_ url: String, _ expected: String) throws {
        let frame = try EddystoneURL(url: url, txPower: -20)
        #expect(Hex.encode([frame.schemePrefix] + frame.encodedURL) == expected)
        #expect(frame.url == url)
        let serviceData = EddystoneFrame.url(frame).serviceData
        #expect(serviceData.uuid == BluetoothUUID(0xFEAA))
        #expect(EddystoneFrame(serviceData) == .url(frame))
    }

    @Test("Eddystone-URL refuses what it cannot carry")
    func eddystoneURLRefuses() {
        #expect(throws: ADEncodingError.unencodableEddystoneURL("ftp://example.com")) { try EddystoneURL(url: "ftp://example.com", txPower: 0) }
        #expect(throws: ADEncodingError.unencodableEddystoneURL("https://exa mple.com")) { try EddystoneURL(url: "https://exa mple.com", txPower: 0) }
        #expect(throws: ADEncodingError.unencodableEddystoneURL("https://é.com")) { try EddystoneURL(url: "https://é.com", txPower: 0) }
        #expect(throws: ADEncodingError.eddystoneURLTooLong(encodedLength: 18)) {
            try EddystoneURL(url: "https://www.abcdefghijklmnopqr", txPower: 0)
        }
        #expect((try? EddystoneURL(url: "https://www.abcdefghijklmnopq", txPower: 0)) != nil)
    }

    @Test("Eddystone-UID, TLM and EID build and decode")
    func eddystoneFrames() throws {
        let uid = try EddystoneUID(txPower: -25, namespace: Array(0..<10), instance: Array(10..<16))
        #expect(uid.frameBytes.count == 20 && uid.frameBytes.suffix(2) == [0, 0])
        #expect(EddystoneFrame(EddystoneFrame.uid(uid).serviceData) == .uid(uid))
        #expect(throws: ADEncodingError.invalidFieldLength(field: "Eddystone-UID namespace", length: 9, required: 10)) {
            try EddystoneUID(txPower: 0, namespace: Array(0..<9), instance: Array(0..<6))
        }
        #expect(throws: ADEncodingError.invalidFieldLength(field: "Eddystone-UID instance", length: 7, required: 6)) {
            try EddystoneUID(txPower: 0, namespace: Array(0..<10), instance: Array(0..<7))
        }
        // The 18-byte form without the reserved octets decodes and re-encodes as it came.
        let short = try #require(EddystoneUID(frame: uid.frameBytes.dropLast(2)))
        #expect(short.reserved.isEmpty && short.namespace == uid.namespace && short.frameBytes == Array(uid.frameBytes.dropLast(2)))

        let tlm = EddystoneTLM(batteryVoltage: 2950, temperatureRaw: -640, advertisingCount: 0xDEAD_BEEF, uptime: 36000)
        #expect(Hex.encode(tlm.frameBytes) == "20000b86fd80deadbeef00008ca0")
        #expect(tlm.temperature == -2.5 && tlm.uptimeSeconds == 3600)
        #expect(EddystoneFrame(EddystoneFrame.tlm(tlm).serviceData) == .tlm(tlm))
        #expect(tlm.description == "Eddystone-TLM battery 2950 mV, -2.5 °C, 3735928559 PDUs, up 3600 s")

        let eid = try EddystoneEID(txPower: -10, identifier: [1, 2, 3, 4, 5, 6, 7, 8])
        #expect(Hex.encode(eid.frameBytes) == "30f60102030405060708")
        #expect(EddystoneFrame(EddystoneFrame.eid(eid).serviceData) == .eid(eid))
        #expect(throws: ADEncodingError.self) { try EddystoneEID(txPower: 0, identifier: [1]) }
    }

    @Test("malformed Eddystone frames are nil; the service data stays", arguments: [
        "",                                 // no frame type
        "50",                               // unknown frame type
        "00e7",                             // UID too short
        "00e7edd1ebeac04e5defa0170123456789ab00",  // UID of 19 bytes
        "10ec",                             // URL without scheme
        "10ec04",                           // URL scheme 0x04 (reserved)
        "10ec0161200a",                     // URL with a space (0x20)
        "10ec01610e",                       // URL with reserved expansion 0x0e
        "10ec0161ff",                       // URL with 0xff
        "20000bb81780000004d2000030",       // TLM one byte short
        "20010bb81780000004d200003039",     // TLM version 1 (encrypted) is not decoded
        "20000bb81780000004d20000303900",   // TLM one byte long
        "30f6010203040506",                 // EID short
    ])
    func malformedEddystone(_ hex: String) throws {
        let frame = try Hex.decode(hex)
        let serviceData = ServiceData(uuid: EddystoneFrame.serviceUUID, data: frame)
        #expect(EddystoneFrame(serviceData) == nil)
        #expect(serviceData.eddystone == nil)
        // Inside an advertisement: parses, beacon nil, raw bytes available.
        var b = AdvertisingDataBuilder.extended
        try b.append(.serviceData(serviceData))
        let parsed = try AdvertisingData(parsing: b.bytes)
        #expect(parsed.eddystone == nil)
        #expect(Array(parsed.serviceData(for: BluetoothUUID(0xFEAA))?.data ?? [0xEE]) == frame)
    }

    @Test("Eddystone frames under another UUID are not Eddystone")
    func otherUUID() throws {
        let frame = try EddystoneUID(txPower: 0, namespace: Array(0..<10), instance: Array(0..<6)).frameBytes
        #expect(EddystoneFrame(ServiceData(uuid: BluetoothUUID(0xFEAB), data: frame)) == nil)
    }
}
