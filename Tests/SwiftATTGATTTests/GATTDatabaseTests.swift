import SwiftATTPDU
import SwiftATTCore
import SwiftATTGATT
import Testing

/// How a description becomes attributes: handles, declaration values, automatic
/// descriptors, includes, and the errors a bad description gets.
@Suite("GATT database")
struct GATTDatabaseTests {
    /// One attribute as (handle, type, constant value or "-", group end).
    static func rows(_ database: GATTDatabase) -> [String] {
        database.attributes.map { a in
            let value = a.constantValue.map { Hex.encode($0) } ?? "-"
            return "\(handleText(a.handle)) \(a.type) \(value) \(handleText(a.groupEnd))"
        }
    }

    @Test("the heart-rate database: handles, types, declaration values, group ends")
    func heartRateLayout() throws {
        let database = try Fixtures.heartRate().database
        let hash = Hex.encode(database.databaseHashValue)
        #expect(Self.rows(database) == [
            "0001 2800 0018 0005",
            "0002 2803 020300002a 0003",
            "0003 2A00 - 0003",
            "0004 2803 020500012a 0005",
            "0005 2A01 - 0005",
            "0006 2800 0118 000d",
            "0007 2803 200800052a 0009",
            "0008 2A05 - 0008",
            "0009 2902 - 0009",
            "000a 2803 0a0b00292b 000b",
            "000b 2B29 - 000b",
            "000c 2803 020d002a2b 000d",
            "000d 2B2A \(hash) 000d",
            "000e 2800 0d18 0015",
            "000f 2803 101000372a 0011",
            "0010 2A37 - 0010",
            "0011 2902 - 0011",
            "0012 2803 021300382a 0013",
            "0013 2A38 - 0013",
            "0014 2803 081500392a 0015",
            "0015 2A39 - 0015",
        ])
    }

    @Test("handles of characteristics, descriptors and services can be looked up")
    func lookups() throws {
        let f = try Fixtures.heartRate()
        let db = f.database
        #expect(db.valueHandle(of: f.measurement) == 0x0010)
        #expect(db.declarationHandle(of: f.measurement) == 0x000F)
        #expect(db.clientConfigurationHandle(of: f.measurement) == 0x0011)
        #expect(db.clientConfigurationHandle(of: f.bodySensorLocation) == nil)
        #expect(db.handles(of: f.service) == 0x000E...0x0015)
        #expect(db.characteristic(valueHandle: 0x0013) === f.bodySensorLocation)
        #expect(db.attribute(at: 0x0016) == nil)
        #expect(db.attribute(at: 0x0000) == nil)
        #expect(db.attribute(at: 0x0013)?.role == .characteristicValue)
        #expect(db.serviceChanged.flatMap { db.valueHandle(of: $0) } == 0x0008)
        #expect(db.deviceName.flatMap { db.valueHandle(of: $0) } == 0x0003)
        #expect(db.databaseHashValueHandle == 0x000D)
        let foreign = GATTCharacteristic(uuid: BluetoothUUID(0x2A19), properties: [.read])
        #expect(db.valueHandle(of: foreign) == nil)
    }

    @Test("included services: 16-bit UUIDs are in the include value, 128-bit ones are not")
    func includes() throws {
        let uuid128 = BluetoothUUID(uuid128: 0x12345678_1234_5678_1234_56789ABCDEF0)
        let battery = GATTService(uuid: BluetoothUUID(0x180F), isPrimary: false, characteristics: [
            GATTCharacteristic(uuid: BluetoothUUID(0x2A19), properties: [.read], value: .bytes([0x64])),
        ])
        let vendor = GATTService(uuid: uuid128)
        // Included services may come after the including one.
        let glucose = GATTService(uuid: BluetoothUUID(0x1808), includedServices: [battery, vendor])
        let db = try GATTDatabase(services: [glucose, battery, vendor], genericAccess: nil, includesGenericAttributeService: false)
        #expect(Self.rows(db) == [
            "0001 2800 0818 0003",
            "0002 2802 040006000f18 0002",
            "0003 2802 07000700 0003",
            "0004 2801 0f18 0006",
            "0005 2803 020600192a 0006",
            "0006 2A19 - 0006",
            "0007 2800 f0debc9a785634127856341278563412 0007",
        ])
    }

    @Test("automatic descriptors: Extended Properties first, configuration descriptors last")
    func automaticDescriptors() throws {
        let format = GATTDescriptor.presentationFormat(GATTPresentationFormat(format: 0x04, unit: 0x27AD))
        let other = GATTDescriptor.presentationFormat(GATTPresentationFormat(format: 0x06, exponent: -2, unit: 0x272F))
        let aggregate = GATTDescriptor.aggregateFormat([format, other])
        let custom = GATTDescriptor(uuid: BluetoothUUID(0xABCD), value: .bytes([0x42]))
        let c = GATTCharacteristic(
            uuid: BluetoothUUID(0x2A19),
            properties: [.broadcast, .read, .notify, .indicate],
            extendedProperties: [.reliableWrite],
            value: .bytes([0x64]),
            descriptors: [.userDescription("Level"), format, other, aggregate, custom])
        let db = try GATTDatabase(services: [GATTService(uuid: BluetoothUUID(0x180F), characteristics: [c])],
                                  genericAccess: nil, includesGenericAttributeService: false)
        #expect(Self.rows(db) == [
            "0001 2800 0f18 000b",
            "0002 2803 b30300192a 000b",
            "0003 2A19 - 0003",
            "0004 2900 0100 0004",
            "0005 2901 - 0005",
            "0006 2904 0400ad27010000 0006",
            "0007 2904 06fe2f27010000 0007",
            "0008 2905 06000700 0008",
            "0009 ABCD - 0009",
            "000a 2902 - 000a",
            "000b 2903 - 000b",
        ])
        #expect(db.handle(of: aggregate) == 0x0008)
        #expect(db.clientConfigurationHandle(of: c) == 0x000A)
    }

    @Test("a 32-bit or Base-UUID 128-bit UUID is stored 16 bits wide when it can be, else 128")
    func uuidWidths() throws {
        let c = GATTCharacteristic(uuid: BluetoothUUID(uuid32: 0x0001_2A19), properties: [.read])
        let s = GATTService(uuid: BluetoothUUID(uuid128: 0x0000180F_0000_1000_8000_00805F9B34FB), characteristics: [c])
        let db = try GATTDatabase(services: [s], genericAccess: nil, includesGenericAttributeService: false)
        #expect(db.attributes[0].constantValue == [0x0F, 0x18])
        #expect(db.attributes[2].type.width == .bits128)
        #expect(db.attributes[1].constantValue?.count == 19)
    }

    @Test("a service can ask for a start handle; the handles before it stay unused")
    func startHandle() throws {
        let early = GATTService(uuid: BluetoothUUID(0x180A))
        let late = GATTService(uuid: BluetoothUUID(0x180F), characteristics: [
            GATTCharacteristic(uuid: BluetoothUUID(0x2A19), properties: [.read], value: .bytes([0x64])),
        ], startHandle: 0x0100)
        let db = try GATTDatabase(services: [early, late], genericAccess: nil, includesGenericAttributeService: false)
        #expect(db.attributes.map(\.handle) == [0x0001, 0x0100, 0x0101, 0x0102])
        #expect(db.attribute(at: 0x0080) == nil)
        let server = GATTServer(database: db)
        try server.expect([
            Exchange(name: "Find Information across the gap", request: "04 0200 ffff",
                     response: "05 01 0001 0028 0101 0328 0201 192a"),
            Exchange(name: "Read in the gap", request: "0a 8000", response: "01 0a 8000 01"),
            Exchange(name: "Read By Group Type", request: "10 0100 ffff 0028",
                     response: "11 06 0100 0100 0a18 0001 0201 0f18"),
        ])
    }

    struct BadDescription: Sendable, CustomTestStringConvertible {
        let name: String
        let make: @Sendable () throws -> GATTDatabase
        let error: GATTDatabaseError
        var testDescription: String { name }
    }

    static let badDescriptions: [BadDescription] = {
        let u = BluetoothUUID(0xFFA0)
        let cu = BluetoothUUID(0xFFA1)
        return [
            BadDescription(name: "the same service twice", make: {
                let s = GATTService(uuid: u)
                return try GATTDatabase(services: [s, s])
            }, error: .duplicateService(u)),
            BadDescription(name: "the same characteristic twice", make: {
                let c = GATTCharacteristic(uuid: cu, properties: [.read])
                return try GATTDatabase(services: [GATTService(uuid: u, characteristics: [c, c])])
            }, error: .duplicateCharacteristic(cu)),
            BadDescription(name: "an included service not in the database", make: {
                let missing = GATTService(uuid: BluetoothUUID(0x180F))
                return try GATTDatabase(services: [GATTService(uuid: u, includedServices: [missing])])
            }, error: .includedServiceMissing(BluetoothUUID(0x180F), including: u)),
            BadDescription(name: "a start handle already used", make: {
                try GATTDatabase(services: [GATTService(uuid: u, startHandle: 0x0005)])
            }, error: .startHandleUnavailable(service: u, requested: 0x0005, nextFree: 0x000E)),
            BadDescription(name: "a CCCD on a characteristic without notify or indicate", make: {
                let c = GATTCharacteristic(uuid: cu, properties: [.read], descriptors: [.clientCharacteristicConfiguration()])
                return try GATTDatabase(services: [GATTService(uuid: u, characteristics: [c])])
            }, error: .descriptorNotAllowed(BluetoothUUID(0x2902), characteristic: cu)),
            BadDescription(name: "an SCCD without broadcast", make: {
                let c = GATTCharacteristic(uuid: cu, properties: [.notify], descriptors: [.serverCharacteristicConfiguration()])
                return try GATTDatabase(services: [GATTService(uuid: u, characteristics: [c])])
            }, error: .descriptorNotAllowed(BluetoothUUID(0x2903), characteristic: cu)),
            BadDescription(name: "Extended Properties without extended properties", make: {
                let c = GATTCharacteristic(uuid: cu, properties: [.read], descriptors: [.extendedProperties()])
                return try GATTDatabase(services: [GATTService(uuid: u, characteristics: [c])])
            }, error: .descriptorNotAllowed(BluetoothUUID(0x2900), characteristic: cu)),
            BadDescription(name: "a GATT-defined type as a plain descriptor", make: {
                let c = GATTCharacteristic(uuid: cu, properties: [.notify], descriptors: [
                    GATTDescriptor(uuid: BluetoothUUID(0x2902), value: .bytes([0, 0])),
                ])
                return try GATTDatabase(services: [GATTService(uuid: u, characteristics: [c])])
            }, error: .descriptorNotAllowed(BluetoothUUID(0x2902), characteristic: cu)),
            BadDescription(name: "two User Descriptions", make: {
                let c = GATTCharacteristic(uuid: cu, properties: [.read], descriptors: [.userDescription("a"), .userDescription("b")])
                return try GATTDatabase(services: [GATTService(uuid: u, characteristics: [c])])
            }, error: .duplicateDescriptor(BluetoothUUID(0x2901), characteristic: cu)),
            BadDescription(name: "an Aggregate Format listing a non-format descriptor", make: {
                let d = GATTDescriptor.userDescription("a")
                let c = GATTCharacteristic(uuid: cu, properties: [.read], descriptors: [d, .aggregateFormat([d])])
                return try GATTDatabase(services: [GATTService(uuid: u, characteristics: [c])])
            }, error: .aggregateFormatInvalid(characteristic: cu)),
            BadDescription(name: "an initial value over 512 octets", make: {
                let c = GATTCharacteristic(uuid: cu, properties: [.read], value: .bytes([UInt8](repeating: 0, count: 513)))
                return try GATTDatabase(services: [GATTService(uuid: u, characteristics: [c])])
            }, error: .invalidValueLength(cu, length: 513, limit: .upTo512)),
            BadDescription(name: "a length limit over 512 octets", make: {
                let c = GATTCharacteristic(uuid: cu, properties: [.read], value: .dynamic(length: .variable(maximum: 600)))
                return try GATTDatabase(services: [GATTService(uuid: u, characteristics: [c])])
            }, error: .invalidValueLength(cu, length: 600, limit: .variable(maximum: 600))),
            BadDescription(name: "a fixed-length value of another length", make: {
                let c = GATTCharacteristic(uuid: cu, properties: [.read], value: .bytes([1, 2, 3], length: .fixed(2)))
                return try GATTDatabase(services: [GATTService(uuid: u, characteristics: [c])])
            }, error: .invalidValueLength(cu, length: 3, limit: .fixed(2))),
            BadDescription(name: "a device name over 248 octets", make: {
                try GATTDatabase(services: [], genericAccess: GATTGenericAccess(deviceName: String(repeating: "n", count: 249)))
            }, error: .deviceNameTooLong(249)),
            BadDescription(name: "handles past 0xFFFF", make: {
                try GATTDatabase(services: [GATTService(uuid: u, characteristics: [
                    GATTCharacteristic(uuid: cu, properties: [.read]),
                ], startHandle: 0xFFFE)], genericAccess: nil, includesGenericAttributeService: false)
            }, error: .handlesExhausted(service: u)),
        ]
    }()

    @Test("a bad description is refused with a typed error", arguments: badDescriptions)
    func refused(_ bad: BadDescription) {
        #expect(throws: bad.error) { try bad.make() }
        #expect(!bad.error.description.isEmpty)
    }

    @Test("the GAP and GATT services can be left out, and an empty database answers Attribute Not Found")
    func optOut() throws {
        let db = try GATTDatabase(services: [], genericAccess: nil, includesGenericAttributeService: false)
        #expect(db.attributes.isEmpty)
        #expect(db.serviceChanged == nil)
        let server = GATTServer(database: db)
        try server.expect([
            Exchange(name: "Find Information", request: "04 0100 ffff", response: "01 04 0100 0a"),
            Exchange(name: "Read", request: "0a 0100", response: "01 0a 0100 01"),
        ])
    }
}
