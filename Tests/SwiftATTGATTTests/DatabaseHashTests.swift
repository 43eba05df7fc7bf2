import SwiftATTPDU
import SwiftATTCore
import SwiftATTGATT
import SwiftATTCrypto
import Testing

/// The Database Hash (Core 5.4 Vol 3 Part G §7.3.1) against two independent answers.
@Suite("Database Hash")
struct DatabaseHashTests {
    /// The example database of the Core specification's Database Hash appendix, as
    /// BlueKitchen's test script carries it: GAP (writable Device Name), GATT, a Glucose
    /// service including a secondary Battery service, with the Glucose Measurement's
    /// CCCD before its Extended Properties descriptor.
    static let specificationInput =
        "010000280018020003280a0300002a04000328020500012a06000028011807000328200800052a090002290a0003280a0b00292b0c000328020d002a2b0e00002808180f000228140016000f1810000328a21100182a12000229130000290000140001280f1815000328021600192a"
    static let specificationHash: UInt128 = 0xF1CA2D48_ECF58BAC_8A8830BB_B9FBA990

    @Test("the specification's example database hashes to F1CA2D48…A990")
    func specificationExample() throws {
        let battery = GATTService(uuid: BluetoothUUID(0x180F), isPrimary: false, characteristics: [
            GATTCharacteristic(uuid: BluetoothUUID(0x2A19), properties: [.read], value: .bytes([0x64])),
        ])
        let measurement = GATTCharacteristic(
            uuid: BluetoothUUID(0x2A18), properties: [.read, .indicate, .extendedProperties],
            value: .bytes([]),
            descriptors: [.clientCharacteristicConfiguration(), .extendedProperties()])
        let glucose = GATTService(uuid: BluetoothUUID(0x1808), includedServices: [battery], characteristics: [measurement])
        let database = try GATTDatabase(
            services: [glucose, battery],
            genericAccess: GATTGenericAccess(deviceName: "x", deviceNameWritable: true))

        #expect(Hex.encode(DatabaseHash.input(database.attributes)) == Self.specificationInput)
        #expect(CMAC.tag(key: 0, message: try bytes(Self.specificationInput)) == Self.specificationHash)
        #expect(database.databaseHash == Self.specificationHash)
        #expect(database.databaseHashValue == Array(try bytes("F1CA2D48ECF58BAC8A8830BBB9FBA990").reversed()))
    }

    /// Bumble 0.0.236's server, given the same database (its default GAP and GATT
    /// services and the Heart Rate service of `Fixtures.heartRate`), computes this input
    /// and hash (`GenericAttributeProfileService.get_database_hash`).
    static let bumbleInput =
        "01000028001802000328020300002a04000328020500012a06000028011807000328200800052a090002290a0003280a0b00292b0c000328020d002a2b0e0000280d180f000328101000372a1100022912000328021300382a14000328081500392a"
    static let bumbleHash: UInt128 = 0x81ca5a2f_f73bd14b_641b0897_4afb73ba

    @Test("agrees with Bumble's hash of the heart-rate database")
    func agreesWithBumble() throws {
        let database = try Fixtures.heartRate().database
        #expect(Hex.encode(DatabaseHash.input(database.attributes)) == Self.bumbleInput)
        #expect(database.databaseHash == Self.bumbleHash)
    }

    @Test("the Database Hash characteristic serves the hash least significant octet first")
    func servedValue() throws {
        let server = GATTServer(database: try Fixtures.heartRate().database)
        try server.expect([
            Exchange(name: "Read", request: "0a 0d00", response: "0b ba73fb4a97081b644bd13bf72f5aca81"),
            Exchange(name: "Read Using Characteristic UUID", request: "08 0100 ffff 2a2b",
                     response: "09 12 0d00 ba73fb4a97081b644bd13bf72f5aca81"),
        ])
    }

    @Test("the hash changes with the structure, not with characteristic values")
    func coversStructureOnly() throws {
        let a = try GATTDatabase(services: [GATTService(uuid: BluetoothUUID(0x180F), characteristics: [
            GATTCharacteristic(uuid: BluetoothUUID(0x2A19), properties: [.read], value: .bytes([0x64])),
        ])])
        let b = try GATTDatabase(services: [GATTService(uuid: BluetoothUUID(0x180F), characteristics: [
            GATTCharacteristic(uuid: BluetoothUUID(0x2A19), properties: [.read], value: .bytes([0x00])),
        ])])
        let c = try GATTDatabase(services: [GATTService(uuid: BluetoothUUID(0x180F), characteristics: [
            GATTCharacteristic(uuid: BluetoothUUID(0x2A19), properties: [.read, .notify], value: .bytes([0x64])),
        ])])
        #expect(a.databaseHash == b.databaseHash)
        #expect(a.databaseHash != c.databaseHash)
    }
}
