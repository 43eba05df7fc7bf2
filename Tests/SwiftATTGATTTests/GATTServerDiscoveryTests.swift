import SwiftATTPDU
import SwiftATTCore
import SwiftATTGATT
import Testing

/// Find Information, Find By Type Value, Read By Type and Read By Group Type: exact
/// request and response bytes (Core 5.4 Vol 3 Part F §3.4.3, §3.4.4.1, §3.4.4.9).
@Suite("GATT server: discovery")
struct GATTServerDiscoveryTests {
    /// Against `Fixtures.heartRate` (handles in its comment), ATT_MTU 23 unless noted.
    static let heartRate: [Exchange] = [
        // Primary service discovery (Part G §4.4.1).
        Exchange(name: "Read By Group Type: all primary services",
                 request: "10 0100 ffff 0028",
                 response: "11 06 0100 0500 0018 0600 0d00 0118 0e00 1500 0d18"),
        Exchange(name: "Read By Group Type: after the last service",
                 request: "10 1600 ffff 0028", response: "01 10 1600 0a"),
        Exchange(name: "Read By Group Type: no secondary services",
                 request: "10 0100 ffff 0128", response: "01 10 0100 0a"),
        Exchange(name: "Read By Group Type: «Characteristic» is not a group type here",
                 request: "10 0100 ffff 0328", response: "01 10 0100 10"),
        Exchange(name: "Read By Group Type: a 128-bit form of «Primary Service»",
                 request: "10 0100 0500 fb349b5f800000800010000000280000",
                 response: "11 06 0100 0500 0018"),
        Exchange(name: "Read By Group Type: starting handle 0x0000",
                 request: "10 0000 ffff 0028", response: "01 10 0000 01"),
        Exchange(name: "Read By Group Type: start after end",
                 request: "10 0500 0100 0028", response: "01 10 0500 01"),
        Exchange(name: "Read By Group Type: invalid range beats unsupported type",
                 request: "10 0000 ffff 0328", response: "01 10 0000 01"),
        // Discover primary service by UUID (§4.4.2).
        Exchange(name: "Find By Type Value: Heart Rate service",
                 request: "06 0100 ffff 0028 0d18", response: "07 0e00 1500"),
        Exchange(name: "Find By Type Value: the GAP service",
                 request: "06 0100 ffff 0028 0018", response: "07 0100 0500"),
        Exchange(name: "Find By Type Value: no Battery service",
                 request: "06 0100 ffff 0028 0f18", response: "01 06 0100 0a"),
        Exchange(name: "Find By Type Value: a characteristic declaration ends its characteristic",
                 request: "06 0100 ffff 0328 101000372a", response: "07 0f00 1100"),
        Exchange(name: "Find By Type Value: a plain attribute ends at itself",
                 request: "06 0100 ffff 382a 01", response: "07 1300 1300"),
        Exchange(name: "Find By Type Value: unreadable values never match",
                 request: "06 0100 ffff 052a", response: "01 06 0100 0a"),
        Exchange(name: "Find By Type Value: range outside the service",
                 request: "06 0f00 ffff 0028 0d18", response: "01 06 0f00 0a"),
        Exchange(name: "Find By Type Value: starting handle 0x0000",
                 request: "06 0000 ffff 0028 0d18", response: "01 06 0000 01"),
        // Discover characteristics (§4.6.1): entries of 7 octets, three per 23-octet PDU.
        Exchange(name: "Read By Type «Characteristic»: the first three",
                 request: "08 0100 ffff 0328",
                 response: "09 07 0200 020300002a 0400 020500012a 0700 200800052a"),
        Exchange(name: "Read By Type «Characteristic»: within Heart Rate",
                 request: "08 0e00 1500 0328",
                 response: "09 07 0f00 101000372a 1200 021300382a 1400 081500392a"),
        Exchange(name: "Read By Type «Characteristic»: a 128-bit form of the type",
                 request: "08 0e00 1000 fb349b5f800000800010000003280000",
                 response: "09 07 0f00 101000372a"),
        Exchange(name: "Read By Type «Characteristic»: none left",
                 request: "08 1500 ffff 0328", response: "01 08 1500 0a"),
        Exchange(name: "Read By Type «Characteristic»: start after end",
                 request: "08 0200 0100 0328", response: "01 08 0200 01"),
        Exchange(name: "Read By Type «Characteristic»: at ATT_MTU 64, everything",
                 request: "08 0100 ffff 0328",
                 response: "09 07 0200 020300002a 0400 020500012a 0700 200800052a 0a00 0a0b00292b 0c00 020d002a2b 0f00 101000372a 1200 021300382a 1400 081500392a",
                 mtu: 64),
        // Discover all characteristic descriptors (§4.7.1).
        Exchange(name: "Find Information: five 16-bit pairs fill ATT_MTU 23",
                 request: "04 0100 ffff",
                 response: "05 01 0100 0028 0200 0328 0300 002a 0400 0328 0500 012a"),
        Exchange(name: "Find Information: a descriptor range",
                 request: "04 1100 1100", response: "05 01 1100 0229"),
        Exchange(name: "Find Information: past the end",
                 request: "04 1600 ffff", response: "01 04 1600 0a"),
        Exchange(name: "Find Information: starting handle 0x0000",
                 request: "04 0000 0100", response: "01 04 0000 01"),
        Exchange(name: "Find Information: start after end",
                 request: "04 0300 0200", response: "01 04 0300 01"),
        // Read Using Characteristic UUID (§4.8.2).
        Exchange(name: "Read By Type: Device Name by UUID",
                 request: "08 0100 ffff 002a", response: "09 0b 0300 73776966742d617474"),
        Exchange(name: "Read By Type: the CCCDs (per-connection values)",
                 request: "08 0100 ffff 0229", response: "09 04 0900 0000 1100 0000"),
        Exchange(name: "Read By Type: an unreadable first attribute fails with its handle",
                 request: "08 0100 ffff 052a", response: "01 08 0800 02"),
        Exchange(name: "Read By Type: a write-only value fails with its handle",
                 request: "08 0100 ffff 392a", response: "01 08 1500 02"),
        Exchange(name: "Read By Type: an absent type",
                 request: "08 0100 ffff 192a", response: "01 08 0100 0a"),
    ]

    @Test("heart-rate database", arguments: heartRate)
    func heartRateExchange(_ e: Exchange) throws {
        let server = GATTServer(database: try Fixtures.heartRate().database)
        try server.expect([e])
    }

    /// A 128-bit service and characteristic, no GAP or GATT service:
    ///
    ///     0001 Primary Service 12345678-1234-5678-1234-56789ABCDEF0
    ///     0002 Characteristic → 0003 …DEF1     0004 Characteristic → 0005 2A19
    ///     0003 …DEF1 (read) 01                 0005 Battery Level (read) 64
    static func vendorDatabase() throws -> GATTDatabase {
        let service = GATTService(uuid: BluetoothUUID(uuid128: 0x12345678_1234_5678_1234_56789ABCDEF0), characteristics: [
            GATTCharacteristic(uuid: BluetoothUUID(uuid128: 0x12345678_1234_5678_1234_56789ABCDEF1), properties: [.read], value: .bytes([0x01])),
            GATTCharacteristic(uuid: BluetoothUUID(0x2A19), properties: [.read], value: .bytes([0x64])),
        ])
        return try GATTDatabase(services: [service], genericAccess: nil, includesGenericAttributeService: false)
    }

    static let vendor: [Exchange] = [
        Exchange(name: "Find Information stops where the UUID width changes",
                 request: "04 0100 ffff", response: "05 01 0100 0028 0200 0328"),
        Exchange(name: "Find Information: one 128-bit pair fits ATT_MTU 23",
                 request: "04 0300 ffff", response: "05 02 0300 f1debc9a785634127856341278563412"),
        Exchange(name: "Find Information: after a 128-bit type, 16-bit ones",
                 request: "04 0400 ffff", response: "05 01 0400 0328 0500 192a"),
        Exchange(name: "Read By Group Type: a 128-bit service UUID",
                 request: "10 0100 ffff 0028", response: "11 14 0100 0500 f0debc9a785634127856341278563412"),
        Exchange(name: "Read By Type «Characteristic» stops where the value length changes",
                 request: "08 0100 ffff 0328", response: "09 15 0200 020300f1debc9a785634127856341278563412"),
        Exchange(name: "Read By Type «Characteristic» from the 16-bit one",
                 request: "08 0300 ffff 0328", response: "09 07 0400 020500192a"),
        Exchange(name: "Read Using Characteristic UUID, 128-bit",
                 request: "08 0100 ffff f1debc9a785634127856341278563412", response: "09 03 0300 01"),
        Exchange(name: "Find By Type Value cannot find a 128-bit service by a 16-bit value",
                 request: "06 0100 ffff 0028 f0de", response: "01 06 0100 0a"),
        Exchange(name: "Find By Type Value finds a 128-bit service by its 16-octet value",
                 request: "06 0100 ffff 0028 f0debc9a785634127856341278563412", response: "07 0100 0500"),
    ]

    @Test("128-bit UUIDs", arguments: vendor)
    func vendorExchange(_ e: Exchange) throws {
        let server = GATTServer(database: try Self.vendorDatabase())
        try server.expect([e])
    }

    /// Four values of one type (FFD1), the second needing encryption, the last longer:
    ///
    ///     0001 Primary Service FFD0
    ///     0002/0003 FFD1 01     0004/0005 FFD1 02 (encrypted)
    ///     0006/0007 FFD1 03     0008/0009 FFD1 04 05
    static func sameTypeDatabase() throws -> GATTDatabase {
        let u = BluetoothUUID(0xFFD1)
        let service = GATTService(uuid: BluetoothUUID(0xFFD0), characteristics: [
            GATTCharacteristic(uuid: u, properties: [.read], value: .bytes([0x01])),
            GATTCharacteristic(uuid: u, properties: [.read], permissions: AttributePermissions(read: .encrypted), value: .bytes([0x02])),
            GATTCharacteristic(uuid: u, properties: [.read], value: .bytes([0x03])),
            GATTCharacteristic(uuid: u, properties: [.read], value: .bytes([0x04, 0x05])),
        ])
        return try GATTDatabase(services: [service], genericAccess: nil, includesGenericAttributeService: false)
    }

    @Test("Read By Type: an error after the first entry ends the list; on the first, it is the answer")
    func readByTypeErrors() throws {
        let server = GATTServer(database: try Self.sameTypeDatabase())
        try server.expect([
            Exchange(name: "stops before the encrypted value", request: "08 0100 ffff d1ff", response: "09 03 0300 01"),
            Exchange(name: "the encrypted value first", request: "08 0400 ffff d1ff", response: "01 08 0500 0f"),
            Exchange(name: "stops at the length change", request: "08 0600 ffff d1ff", response: "09 03 0700 03"),
            Exchange(name: "the longer value alone", request: "08 0800 ffff d1ff", response: "09 04 0900 0405"),
        ])
        server.setSecurity(.encrypted(keySize: 16), for: 1)
        try server.expect([
            Exchange(name: "encrypted: three values of one length", request: "08 0100 ffff d1ff",
                     response: "09 03 0300 01 0500 02 0700 03"),
        ])
    }

    @Test("Read By Type cuts each value to min(ATT_MTU−4, 253) octets")
    func readByTypeTruncation() throws {
        let server = GATTServer(database: try Fixtures.values().database)
        let long = Fixtures.longValue
        #expect(try server.respond("08 0100 ffff e1ff") == "0915" + "0300" + Hex.encode(long.prefix(19)))
        #expect(try server.respond("08 0100 ffff e1ff", mtu: 100) == "0962" + "0300" + Hex.encode(long.prefix(96)))
        #expect(try server.respond("08 0100 ffff e1ff", mtu: 517) == "09ff" + "0300" + Hex.encode(long.prefix(253)))
    }

    @Test("included service discovery (Part G §4.5.1)")
    func includes() throws {
        let battery = GATTService(uuid: BluetoothUUID(0x180F), isPrimary: false, characteristics: [
            GATTCharacteristic(uuid: BluetoothUUID(0x2A19), properties: [.read], value: .bytes([0x64])),
        ])
        let vendor = GATTService(uuid: BluetoothUUID(uuid128: 0x12345678_1234_5678_1234_56789ABCDEF0))
        let glucose = GATTService(uuid: BluetoothUUID(0x1808), includedServices: [battery, vendor])
        let server = GATTServer(database: try GATTDatabase(
            services: [glucose, battery, vendor], genericAccess: nil, includesGenericAttributeService: false))
        try server.expect([
            Exchange(name: "Read By Type «Include»: the 16-bit one (6-octet value)",
                     request: "08 0100 0300 0228", response: "09 08 0200 040006000f18"),
            Exchange(name: "Read By Type «Include»: the 128-bit one (4-octet value)",
                     request: "08 0300 0300 0228", response: "09 06 0300 07000700"),
            Exchange(name: "the 128-bit service's UUID, read from its declaration",
                     request: "0a 0700", response: "0b f0debc9a785634127856341278563412"),
            Exchange(name: "secondary services by group type",
                     request: "10 0100 ffff 0128", response: "11 06 0400 0600 0f18"),
            Exchange(name: "primary services stop at the UUID width change",
                     request: "10 0100 ffff 0028", response: "11 06 0100 0300 0818"),
        ])
    }
}
