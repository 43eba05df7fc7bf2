@testable import swift_att
import SwiftATTCore
import SwiftATTGATT
import SwiftATTJSON
import Testing

/// What `central discover` shows beside a value's hex: each decoder on golden bytes, and
/// every malformed value shown as hex with what is wrong, never a trap.
struct DecodedValueTextTests {
    static func text(_ decoded: DecodedValueText.Decoded?) -> String? {
        switch decoded {
        case let .value(text, _, _)?: return text
        case let .malformed(reason)?: return "malformed: \(reason)"
        case nil: return nil
        }
    }

    @Test(arguments: [
        ("2A01", "4103", "Heart Rate Sensor: Heart Rate Belt (0x0341)"),
        ("2A01", "4003", "Generic Heart Rate Sensor (0x0340)"),
        ("2A01", "0000", "Unknown (0x0000)"),
        ("2A01", "4703", "Heart Rate Sensor, subcategory 7 (0x0347)"),
        ("2A01", "010f", "category 60, subcategory 1 (0x0F01)"),
        ("2A50", "026b1d46020001", "USB vendor 0x1D6B, product 0x0246, version 1.0.0"),
        ("2A50", "014c0001004205", "Bluetooth SIG company 0x004C (Apple, Inc.), product 0x0001, version 5.4.2"),
        ("2A50", "01ffff01000001", "Bluetooth SIG company 0xFFFF (reserved for testing), product 0x0001, version 1.0.0"),
        ("2A23", "0100000000000000", "manufacturer 0x0000000001, organisation 0x000000"),
        ("2A23", "efcdab8967452301", "manufacturer 0x6789ABCDEF, organisation 0x012345"),
        ("2A19", "50", "80 %"),
        ("2A38", "01", "Chest"),
        ("2A38", "05", "Ear Lobe"),
        ("2A37", "16480004", "72 bpm, contact detected, RR 1000 ms"),
        ("2A37", "0e48e803", "72 bpm, contact detected, energy 1000 kJ"),
        ("2A04", "0600 0c00 0000 c800".replacingOccurrences(of: " ", with: ""), "interval 7.5–15 ms, latency 0, timeout 2000 ms"),
        ("2A04", "ffffffff0000ffff", "interval any, latency 0, timeout any"),
        ("2A04", "1800ffff0400f401", "interval 30–any ms, latency 4, timeout 5000 ms"),
        ("2AA6", "01", "supported"),
        ("2A00", "48432d3038", "\"HC-08\""),
    ])
    func characteristics(uuid: String, hex: String, text: String) throws {
        let decoded = DecodedValueText.characteristic(try Hex.decode(hex), uuid: try #require(BluetoothUUID(uuid)))
        #expect(Self.text(decoded) == text)
    }

    @Test(arguments: [
        ("2A01", "41", "malformed: Appearance: 1 octets, expected 2 octets"),
        ("2A50", "026b1d460200", "malformed: PnP ID: 6 octets, expected 7 octets"),
        ("2A50", "036b1d46020001", "malformed: PnP ID: vendor ID source 0x03 at offset 0 is not defined"),
        ("2A23", "010203", "malformed: System ID: 3 octets, expected 8 octets"),
        ("2A19", "", "malformed: Battery Level: 0 octets, expected 1 octet"),
        ("2A19", "5000", "malformed: Battery Level: 2 octets, expected 1 octet"),
        ("2A19", "65", "malformed: Battery Level: percent 0x65 at offset 0 is not defined"),
        ("2A38", "07", "malformed: Body Sensor Location: location 0x07 at offset 0 is not defined"),
        ("2A37", "10", "malformed: Heart Rate Measurement: truncated: need 4 octets, have 1"),
        ("2A04", "0600", "malformed: Peripheral Preferred Connection Parameters: 2 octets, expected 8 octets"),
        ("2AA6", "", "malformed: Central Address Resolution: 0 octets, expected 1 octet"),
    ])
    func malformedCharacteristics(uuid: String, hex: String, text: String) throws {
        let decoded = DecodedValueText.characteristic(try Hex.decode(hex), uuid: try #require(BluetoothUUID(uuid)))
        #expect(Self.text(decoded) == text)
    }

    @Test(arguments: [
        ("2900", "0000", "none"),
        ("2900", "0300", "reliable-write, writable-auxiliaries"),
        ("2901", "54656d7065726174757265", "\"Temperature\""),
        ("2901", "", "\"\""),
        ("2902", "0000", "notifications off, indications off"),
        ("2902", "0100", "notifications on, indications off"),
        ("2902", "0200", "notifications off, indications on"),
        ("2902", "0300", "notifications on, indications on"),
        ("2903", "0100", "broadcasts on"),
        ("2904", "0400ad27010601", "uint8, percentage (0x27AD), exponent 0, namespace Bluetooth SIG, description \"main\" (0x0106)"),
        ("2904", "0efe2f27010000",
         "sint16, Celsius temperature (degree Celsius) (0x272F), exponent -2, namespace Bluetooth SIG, description \"unknown\" (0x0000)"),
        ("2904", "1f00992702ab00", "format 0x1F, unit 0x2799, exponent 0, namespace 0x02, description (0x00AB)"),
        ("2905", "16001900", "formats at 0x0016, 0x0019"),
    ])
    func descriptors(uuid: String, hex: String, text: String) throws {
        let decoded = DecodedValueText.descriptor(try Hex.decode(hex), uuid: try #require(BluetoothUUID(uuid)))
        #expect(Self.text(decoded) == text)
    }

    @Test(arguments: [
        ("2900", "03", "malformed: Extended Properties: 1 octets, expected 2 octets"),
        ("2902", "010000", "malformed: Client Characteristic Configuration: 3 octets, expected 2 octets"),
        ("2903", "", "malformed: Server Characteristic Configuration: 0 octets, expected 2 octets"),
        ("2904", "0400ad270106", "malformed: Presentation Format: 6 octets, expected 7 octets"),
        ("2905", "160019", "malformed: Aggregate Format: 3 octets, expected a list of 2-octet handles"),
    ])
    func malformedDescriptors(uuid: String, hex: String, text: String) throws {
        let decoded = DecodedValueText.descriptor(try Hex.decode(hex), uuid: try #require(BluetoothUUID(uuid)))
        #expect(Self.text(decoded) == text)
    }

    /// Every truncation of every golden value decodes or says why; none traps.
    @Test func everyTruncationIsShownNotTrapped() throws {
        let golden: [(String, String)] = [("2A01", "4103"), ("2A50", "026b1d46020001"), ("2A23", "0100000000000000"),
                                          ("2A37", "1e4800e80300040004"), ("2A04", "06000c000000c800"), ("2902", "0100"),
                                          ("2904", "0400ad27010601"), ("2905", "16001900")]
        for (uuid, hex) in golden {
            let bytes = try Hex.decode(hex), id = try #require(BluetoothUUID(uuid))
            for length in 0...bytes.count {
                _ = DecodedValueText.characteristic(Array(bytes.prefix(length)), uuid: id)
                _ = DecodedValueText.descriptor(Array(bytes.prefix(length)), uuid: id)
            }
        }
    }

    @Test func jsonFieldsBesideTheHex() throws {
        guard case let .value(_, json, _)? = DecodedValueText.characteristic(try Hex.decode("026b1d46020001"), uuid: BluetoothUUID(0x2A50))
        else { Issue.record("PnP ID did not decode"); return }
        #expect(JSONValue.object(json) == .object([JSONMember("pnpID", .object([
            JSONMember("vendorIDSource", "usb"), JSONMember("vendorID", 0x1D6B), JSONMember("productID", 0x0246),
            JSONMember("productVersion", 0x0100), JSONMember("version", "1.0.0"),
        ]))]))
    }
}
