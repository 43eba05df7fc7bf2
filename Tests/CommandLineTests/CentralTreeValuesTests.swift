@testable import swift_att
import SwiftATTCore
import SwiftATTGATT
import SwiftATTJSON
import SwiftATTPDU
import Testing

/// The `central discover` tree with what was read: decoded values beside their hex,
/// descriptor values, a malformed value as hex with what is wrong, and a refused read
/// shown with the ATT error instead of failing the tree.
struct CentralTreeValuesTests {
    /// Battery (level, its Presentation Format, its CCCD), a user description, and a
    /// vendor characteristic the server refuses to read.
    static let database = GATTClientDatabase(services: [
        .init(service: GATTClient.Service(uuid: BluetoothUUID(0x180F), handles: 0x0010...0x0017), characteristics: [
            .init(characteristic: GATTClient.Characteristic(uuid: BluetoothUUID(0x2A19), declarationHandle: 0x0011, valueHandle: 0x0012,
                                                           endHandle: 0x0015, properties: [.read, .notify]),
                  descriptors: [GATTClient.Descriptor(handle: 0x0013, uuid: BluetoothUUID(0x2904)),
                                GATTClient.Descriptor(handle: 0x0014, uuid: BluetoothUUID(0x2901)),
                                GATTClient.Descriptor(handle: 0x0015, uuid: BluetoothUUID(0x2902))]),
            .init(characteristic: GATTClient.Characteristic(uuid: BluetoothUUID(0xFFF1), declarationHandle: 0x0016, valueHandle: 0x0017,
                                                           endHandle: 0x0017, properties: [.read])),
        ]),
    ])

    static let read = DiscoveredValues(
        values: [0x0012: [0x50], 0x0013: [0x04, 0x00, 0xAD, 0x27, 0x01, 0x06, 0x01], 0x0014: Array("main".utf8), 0x0015: [0x01]],
        failures: [0x0017: .attributeError(.insufficientEncryption, handle: 0x0017, request: .readRequest)])

    @Test func theTreeShowsDescriptorValuesMalformedValuesAndRefusals() {
        #expect(CentralTree.text(Self.database, read: Self.read) == [
            "Service 180F Battery  0x0010-0x0017",
            "├─ 2A19 Battery Level  [read, notify]  value 0x0012  = 80 %  (50)",
            "│  ├─ 2904 Characteristic Presentation Format  0x0013  = uint8, percentage (0x27AD), exponent 0, "
                + "namespace Bluetooth SIG, description \"main\" (0x0106)  (04 00 ad 27 01 06 01)",
            "│  ├─ 2901 Characteristic User Description  0x0014  = \"main\"",
            "│  └─ 2902 Client Characteristic Configuration  0x0015  = 01  (malformed: Client Characteristic Configuration: "
                + "1 octets, expected 2 octets)",
            "└─ FFF1  [read]  value 0x0017  (not read: Insufficient Encryption (0x0f))",
        ])
    }

    @Test func theJSONAddsDecodedFieldsAndErrorsBesideTheValue() throws {
        let json = CentralTree.json(Self.database, read: Self.read)
        guard case let .object(top) = json, case let .array(services)? = top.first(where: { $0.key == "services" })?.value,
              case let .object(service)? = services.first,
              case let .array(characteristics)? = service.first(where: { $0.key == "characteristics" })?.value
        else { Issue.record("no characteristics in \(json)"); return }
        guard case let .object(level) = characteristics[0], case let .object(refused) = characteristics[1],
              case let .array(descriptors)? = level.first(where: { $0.key == "descriptors" })?.value
        else { Issue.record("unexpected shape: \(json)"); return }
        #expect(level.filter { $0.key != "descriptors" } == [
            JSONMember("uuid", "2A19"), JSONMember("name", "Battery Level"), JSONMember("handle", 0x12), JSONMember("declaration", 0x11),
            JSONMember("properties", ["read", "notify"]), JSONMember("value", "50"), JSONMember("percent", 80),
        ])
        #expect(descriptors == [
            .object([JSONMember("uuid", "2904"), JSONMember("name", "Characteristic Presentation Format"), JSONMember("handle", 0x13),
                     JSONMember("value", "0400ad27010601"),
                     JSONMember("presentationFormat", .object([
                         JSONMember("format", 4), JSONMember("formatName", "uint8"), JSONMember("exponent", 0),
                         JSONMember("unit", 0x27AD), JSONMember("unitName", "percentage"), JSONMember("namespace", 1),
                         JSONMember("description", 0x0106), JSONMember("descriptionName", "main"),
                     ]))]),
            .object([JSONMember("uuid", "2901"), JSONMember("name", "Characteristic User Description"), JSONMember("handle", 0x14),
                     JSONMember("value", "6d61696e"), JSONMember("text", "main")]),
            .object([JSONMember("uuid", "2902"), JSONMember("name", "Client Characteristic Configuration"), JSONMember("handle", 0x15),
                     JSONMember("value", "01"),
                     JSONMember("malformed", "Client Characteristic Configuration: 1 octets, expected 2 octets")]),
        ])
        #expect(refused == [
            JSONMember("uuid", "FFF1"), JSONMember("handle", 0x17), JSONMember("declaration", 0x16), JSONMember("properties", ["read"]),
            JSONMember("error", "Insufficient Encryption (0x0f)"), JSONMember("attError", 0x0F), JSONMember("descriptors", []),
        ])
    }

    /// A descriptor nothing decodes keeps its hex, and its text when all of it is text.
    @Test func anUndecodedDescriptorKeepsItsHexAndText() {
        var record = Self.database.services[0]
        record.characteristics[0].descriptors[1] = GATTClient.Descriptor(handle: 0x0014, uuid: BluetoothUUID(0x2906))
        let database = GATTClientDatabase(services: [record])
        let read = DiscoveredValues(values: [0x0014: Array("n/a".utf8)])
        #expect(CentralTree.text(database, read: read)[3] == "│  ├─ 2906 Valid Range  0x0014  = 6e2f61  \"n/a\"")
        guard case let .object(top) = CentralTree.json(database, read: read),
              case let .array(services)? = top.first(where: { $0.key == "services" })?.value, case let .object(service)? = services.first,
              case let .array(characteristics)? = service.first(where: { $0.key == "characteristics" })?.value,
              case let .object(level)? = characteristics.first,
              case let .array(descriptors)? = level.first(where: { $0.key == "descriptors" })?.value
        else { Issue.record("unexpected shape"); return }
        #expect(descriptors[1] == .object([JSONMember("uuid", "2906"), JSONMember("name", "Valid Range"), JSONMember("handle", 0x14),
                                           JSONMember("value", "6e2f61"), JSONMember("text", "n/a")]))
    }

    /// What the tree printed before values were decoded still prints so for a value
    /// nothing decodes: hex and its text, long values cut at 32 octets.
    @Test func undecodedValuesAreShownAsBefore() {
        let values: [UInt16: [UInt8]] = [0x0017: Array("hidden".utf8)]
        #expect(CentralTree.text(Self.database, values: values).last == "└─ FFF1  [read]  value 0x0017  = 68696464656e  \"hidden\"")
        let long = CentralTree.text(Self.database, values: [0x0017: Array(repeating: 0xAB, count: 40)]).last
        #expect(long == "└─ FFF1  [read]  value 0x0017  = " + String(repeating: "ab", count: 32) + "… (40 bytes)")
    }
}
