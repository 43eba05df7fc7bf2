import SwiftATTAdvertising
import SwiftATTCore
import Testing

/// The names printed for people, checked against the Assigned Numbers.
@Suite("Assigned numbers")
struct AssignedNumberTests {
    @Test("AD type names")
    func adTypeNames() {
        #expect(ADType.flags.description == "0x01 Flags")
        #expect(ADType(0x09).name == "Complete Local Name")
        #expect(ADType(0x16).name == "Service Data - 16-bit UUID")
        #expect(ADType(0x24).name == "URI")
        #expect(ADType(0x2F).name == "Advertising Interval - long")
        #expect(ADType(0x3D).name == "3D Information Data")
        #expect(ADType(0xFF).description == "0xFF Manufacturer Specific Data")
        #expect(ADType(0x33).name == nil && ADType(0x33).description == "0x33")
        #expect(ADType(0x13).name == nil && ADType(0x00).name == nil)
    }

    @Test("flag names, reserved bits included")
    func flagNames() {
        #expect(ADFlags(rawValue: 0x06).description == "0x06 LE General Discoverable Mode, BR/EDR Not Supported")
        #expect(ADFlags(rawValue: 0x1F).names == [
            "LE Limited Discoverable Mode", "LE General Discoverable Mode", "BR/EDR Not Supported",
            "Simultaneous LE and BR/EDR (Controller)", "Simultaneous LE and BR/EDR (Host)",
        ])
        #expect(ADFlags(rawValue: 0x81).names == ["LE Limited Discoverable Mode", "bit 7"])
        #expect(ADFlags(rawValue: 0).description == "0x00")
        #expect(ADFlags(data: [0x05, 0xFF]) == [.leLimitedDiscoverableMode, .brEDRNotSupported])
    }

    @Test("company identifiers", arguments: [
        (0x004C, "Apple, Inc."), (0x0006, "Microsoft"), (0x0059, "Nordic Semiconductor ASA"), (0x00E0, "Google"),
        (0x0075, "Samsung Electronics Co. Ltd."), (0x02E5, "Espressif Incorporated"), (0x0087, "Garmin International, Inc."),
        (0x006B, "Polar Electro OY"), (0x000D, "Texas Instruments Inc."), (0x000F, "Broadcom Corporation"),
        (0x001D, "Qualcomm"), (0x000A, "Qualcomm Technologies International, Ltd. (QTIL)"), (0x0002, "Intel Corp."),
        (0x012D, "Sony Corporation"), (0x009E, "Bose Corporation"), (0x018E, "Fitbit, Inc."),
        (0x027D, "HUAWEI Technologies Co., Ltd."), (0x038F, "Xiaomi Inc."), (0x0171, "Amazon.com Services, LLC"),
        (0x0499, "Ruuvi Innovations Ltd."),
    ])
    func companyNames(_ id: Int, _ name: String) {
        #expect(CompanyIdentifier(UInt16(id)).name == name)
    }

    @Test("unknown companies print as numbers")
    func unknownCompany() {
        #expect(CompanyIdentifier(0x1234).name == nil)
        #expect(CompanyIdentifier(0x1234).description == "0x1234")
        #expect(CompanyIdentifier.apple.description == "0x004C Apple, Inc.")
    }

    @Test("appearance names", arguments: [
        (0x0000, "Unknown"), (0x0040, "Generic Phone"), (0x0080, "Generic Computer"), (0x0083, "Laptop"),
        (0x00C0, "Generic Watch"), (0x00C1, "Sports Watch"), (0x00C2, "Smartwatch"),
        (0x0340, "Generic Heart Rate Sensor"), (0x0341, "Heart Rate Belt"),
        (0x03C0, "Generic Human Interface Device"), (0x03C2, "Mouse"), (0x0485, "Speed and Cadence Sensor"),
        (0x0941, "Earbud"), (0x0C41, "Fingertip Pulse Oximeter"), (0x0C80, "Generic Weight Scale"),
        (0x1441, "Location Display"),
    ])
    func appearanceNames(_ value: Int, _ name: String) {
        #expect(Appearance(UInt16(value)).name == name)
    }

    @Test("appearance categories and unnamed values")
    func appearanceParts() {
        let belt = Appearance.heartRateBelt
        #expect(belt.category == 13 && belt.subcategory == 1 && belt.categoryName == "Heart Rate Sensor")
        #expect(Appearance(category: 13, subcategory: 1) == belt)
        #expect(Appearance(0x0347).name == nil)
        #expect(Appearance(0x0347).description == "0x0347 Heart Rate Sensor, subcategory 7")
        #expect(Appearance(0xFFFF).description == "0xFFFF category 1023, subcategory 63")
    }

    @Test("LE roles")
    func leRoles() {
        #expect(LERoleSupport.onlyCentral.description == "0x01 Only Central Role supported")
        #expect(LERoleSupport(rawValue: 9).name == nil && LERoleSupport(rawValue: 9).description == "0x09 (reserved)")
    }

    @Test("URI schemes: code points U+0001 to U+0017")
    func uriSchemes() throws {
        let cases: [(String, [UInt8])] = [
            ("http://example.com", [0x16] + Array("//example.com".utf8)),
            ("https://example.com", [0x17] + Array("//example.com".utf8)),
            ("aaa:x", [0x02, 0x78]),
            ("ftp://f", [0x11] + Array("//f".utf8)),
            ("mailto:a@b", [0x01] + Array("mailto:a@b".utf8)),
            ("no scheme", [0x01] + Array("no scheme".utf8)),
            ("", [0x01]),
        ]
        for (text, bytes) in cases {
            let uri = URI(text)
            #expect(Array(uri.bytes) == bytes, "\(text)")
            #expect(uri.uri == text)
            #expect(uri.description == text)
        }
        // A code point this table does not name, sent as two UTF-8 bytes (U+0080).
        let unknown = URI(try ADStructure(type: .uri, data: [0xC2, 0x80] + Array("//x".utf8)))!
        #expect(unknown.schemeCodePoint == 0x80 && unknown.scheme == nil && unknown.uri == nil)
        #expect(unknown.description == "<U+0080>//x")
        // Invalid UTF-8: no code point, never a throw.
        let broken = URI(try ADStructure(type: .uri, data: [0xFF, 0x41]))!
        #expect(broken.schemeCodePoint == nil && !broken.isValidUTF8 && broken.uri == nil)
    }
}
