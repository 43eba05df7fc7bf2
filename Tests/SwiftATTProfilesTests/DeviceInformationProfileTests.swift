import SwiftATTPDU
import SwiftATTCore
import SwiftATTGATT
import SwiftATTProfiles
import Testing

/// The Device Information service: which characteristics, in what order, with which bytes.
struct DeviceInformationProfileTests {
    @Test func defaultsServeEveryCharacteristic() throws {
        let profile = try DeviceInformationProfile.Server()
        let db = profile.database
        let range = try #require(db.handles(of: profile.deviceInformation.service))
        #expect(range == 14...30)
        #expect(HeartRateProfileTests.layout(db, range).filter { $0.contains(" 2803 ") } == [
            "15 2803 021000292a", "17 2803 021200242a", "19 2803 021400252a", "21 2803 021600272a",
            "23 2803 021800262a", "25 2803 021a00282a", "27 2803 021c00232a", "29 2803 021e00502a",
        ])
        let server = GATTServer(database: db)
        server.connect(1)
        #expect(try server.respond("0a1000") == "0b" + Hex.encode(Array("swift-att".utf8)))
        #expect(try server.respond("0a1200") == "0b" + Hex.encode(Array("swift-att peripheral".utf8)))
        #expect(try server.respond("0a1c00") == "0b0100000000000000")   // System ID
        #expect(try server.respond("0a1e00") == "0b01ffff01000001")     // PnP ID: SIG, 0xFFFF, 0x0001, 1.0.0
        // Read-only.
        #expect(try server.respond("12100041") == "0112100003")
    }

    @Test func onlyTheGivenFieldsAreServed() throws {
        let information = DeviceInformation(
            manufacturerName: "Acme", modelNumber: nil, serialNumber: "SN-42", hardwareRevision: nil,
            firmwareRevision: "2.1.0", softwareRevision: nil, systemID: nil,
            pnpID: PnPID(vendorIDSource: .usb, vendorID: 0x1D6B, productID: 0x0246, productVersion: 0x0542))
        let service = DeviceInformationProfile.Service(information)
        #expect(service.characteristics.map(\.uuid) == [0x2A29, 0x2A25, 0x2A26, 0x2A50].map { BluetoothUUID($0) })
        let db = try GATTDatabase(services: [service.service])
        let server = GATTServer(database: db)
        let pnp = try #require(service.characteristic(DeviceInformationProfile.pnpID))
        #expect(server.value(of: pnp) == [0x02, 0x6B, 0x1D, 0x46, 0x02, 0x42, 0x05])
        #expect(service.characteristic(DeviceInformationProfile.modelNumber) == nil)
    }

    @Test func aStringLongerThanAValueIsRefused() {
        let information = DeviceInformation(serialNumber: String(repeating: "9", count: 513))
        #expect(throws: GATTDatabaseError.self) { try DeviceInformationProfile.Server(information: information) }
    }

    @Test func systemIDIsFortyBitsThenTheOUI() throws {
        let id = SystemID(manufacturerIdentifier: 0x01_0203_0405, organizationallyUniqueIdentifier: 0x0A0B0C)
        #expect(id.encoded == [0x05, 0x04, 0x03, 0x02, 0x01, 0x0C, 0x0B, 0x0A])
        #expect(try SystemID(decoding: id.encoded[...]) == id)
        // Wider numbers lose their high bits rather than spilling into the other field.
        #expect(SystemID(manufacturerIdentifier: .max, organizationallyUniqueIdentifier: 0).encoded.suffix(3) == [0, 0, 0])
        #expect(throws: ProfileDecodingError.invalidLength(value: "System ID", length: 7, expected: "8 octets")) {
            try SystemID(decoding: [0, 0, 0, 0, 0, 0, 0][...])
        }
    }

    @Test func pnpIDFromTextAndBytes() throws {
        let id = try #require(PnPID(text: "usb:1d6b:0246:0542"))
        #expect(id == PnPID(vendorIDSource: .usb, vendorID: 0x1D6B, productID: 0x0246, productVersion: 0x0542))
        #expect(try PnPID(decoding: id.encoded[...]) == id)
        #expect(PnPID(text: "bluetooth:FFFF:1:100")?.encoded == [0x01, 0xFF, 0xFF, 0x01, 0x00, 0x00, 0x01])
        for bad in ["", "usb:1d6b:0246", "pci:1:2:3", "usb:12345:1:1", "usb:xyz:1:1", "usb::1:1", "usb:1:2:3:4"] {
            #expect(PnPID(text: bad) == nil, "\(bad)")
        }
        #expect(throws: ProfileDecodingError.invalidField(value: "PnP ID", field: "vendor ID source", byte: 3, offset: 0)) {
            try PnPID(decoding: [3, 0, 0, 0, 0, 0, 0][...])
        }
        #expect(throws: ProfileDecodingError.invalidLength(value: "PnP ID", length: 6, expected: "7 octets")) {
            try PnPID(decoding: [1, 0, 0, 0, 0, 0][...])
        }
    }
}
