import SwiftATTCore
import SwiftATTGATT
import SwiftATTProfiles
import Testing

/// Characteristic Presentation Format values read back (Core 5.4 Vol 3 Part G §3.3.3.5)
/// and the Assigned Numbers names of their fields.
struct PresentationFormatNamesTests {
    /// Battery Level's format as BAS §3.1.2.1 asks for it, and sensor.json's temperature.
    @Test(arguments: [
        ("0400ad27010601", GATTPresentationFormat(format: 0x04, unit: 0x27AD, description: 0x0106), "uint8", "percentage", "main"),
        ("0efe2f27010000", GATTPresentationFormat(format: 0x0E, exponent: -2, unit: 0x272F, description: 0x0000), "sint16",
         "Celsius temperature (degree Celsius)", "unknown"),
        ("19000027010201", GATTPresentationFormat(format: 0x19, unit: 0x2700, description: 0x0102), "utf8s", "unitless", "top"),
    ])
    func goldenValues(hex: String, format: GATTPresentationFormat, formatName: String, unitName: String, descriptionName: String) throws {
        let decoded = try GATTPresentationFormat(decoding: try Hex.decode(hex)[...])
        #expect(decoded == format)
        #expect(decoded.encoded == (try Hex.decode(hex)))
        #expect(decoded.formatName == formatName)
        #expect(decoded.unitName == unitName)
        #expect(decoded.namespaceName == "Bluetooth SIG")
        #expect(decoded.descriptionName == descriptionName)
    }

    @Test func everyTruncationAndAnOverlongValueAreRefused() throws {
        let golden = try Hex.decode("0400ad27010601")
        for length in 0..<golden.count {
            #expect(throws: ProfileDecodingError.invalidLength(value: "Presentation Format", length: length, expected: "7 octets")) {
                try GATTPresentationFormat(decoding: golden.prefix(length))
            }
        }
        #expect(throws: ProfileDecodingError.invalidLength(value: "Presentation Format", length: 8, expected: "7 octets")) {
            try GATTPresentationFormat(decoding: (golden + [0])[...])
        }
    }

    @Test func aSliceIsReadFromItsOwnStart() throws {
        let bytes: [UInt8] = [0xEE, 0xEE] + (try Hex.decode("0400ad27010601"))
        #expect(try GATTPresentationFormat(decoding: bytes[2...]) == BatteryProfile.presentationFormat)
    }

    @Test func unnamedValuesAreNil() {
        let reserved = GATTPresentationFormat(format: 0x00, unit: 0x2799, namespace: 0x02, description: 0x0106)
        #expect(reserved.formatName == nil)
        #expect(reserved.unitName == nil)
        #expect(reserved.namespaceName == nil)
        // Descriptions are named only in the Bluetooth SIG namespace.
        #expect(reserved.descriptionName == nil)
        #expect(GATTPresentationFormat(format: 0x04, description: 0x0111).descriptionName == nil)
        #expect(GATTPresentationFormat(format: 0x1C).formatName == "medASN1")
    }

    @Test(arguments: [(0x0001, "first"), (0x0003, "third"), (0x000A, "tenth"), (0x000B, "11th"), (0x0015, "21st"),
                      (0x0016, "22nd"), (0x0017, "23rd"), (0x0070, "112th"), (0x00FF, "255th"),
                      (0x0100, "front"), (0x010D, "left"), (0x0110, "external")])
    func descriptionNames(description: UInt16, name: String) {
        #expect(GATTPresentationFormat(format: 0x04, description: description).descriptionName == name)
    }
}
