import SwiftATTBondFile
import SwiftATTCore
import SwiftATTGATT
import SwiftATTHost
import SwiftATTJSON
import SwiftATTSecurity
import Testing
import TestSupport

/// The members a bond file gained for what moves as a host runs — the sign counters and
/// `gatt`, what the GATT server keeps for the peer — against the golden file
/// (Fixtures/bonds/bonds-v1-gatt.json): every field read, written back byte for byte,
/// round trips, and the version-1 file without them unchanged.
@Suite("BondDocument JSON: sign counters and GATT state")
struct BondDocumentGATTTests {
    static let heartRateHash: UInt128 = 0x81CA_5A2F_F73B_D14B_641B_0897_4AFB_73BA
    static let specificationHash: UInt128 = 0xF1CA_2D48_ECF5_8BAC_8A88_30BB_B9FB_A990

    /// What Fixtures/bonds/bonds-v1-gatt.json holds: `BondDocumentTests.golden` with the
    /// counters and GATT state, built field by field.
    static var golden: BondDocument {
        var document = BondDocumentTests.golden
        let secure = document.adapters[0].bonds[0].peer
        var legacy = document.adapters[0].bonds[1]
        legacy.peerSignCounter = 41
        legacy.localSignCounter = .max
        document.adapters[0].bonds[1] = legacy
        document.adapters[0].gattClients = [
            secure: GATTBondedClient(
                subscriptions: [
                    .init(valueHandle: 0x0008, characteristic: BluetoothUUID(0x2A05), configuration: .indication),
                    .init(valueHandle: 0x0010, characteristic: BluetoothUUID(0x2A37), configuration: .notification),
                ],
                clientSupportedFeatures: [0x01], changeAware: false, serviceChangeOwed: 0x000E...0x0015,
                databaseHash: heartRateHash),
            legacy.peer: GATTBondedClient(
                subscriptions: [.init(valueHandle: 0x0011, characteristic: BluetoothUUID(0x2A18), configuration: .indication)],
                clientSupportedFeatures: [0x07, 0x00], changeAware: true, databaseHash: specificationHash),
        ]
        return document
    }

    static func goldenText() throws -> String { try FixtureFiles.text("bonds/bonds-v1-gatt.json") }

    @Test func readsEveryFieldOfTheGoldenFile() throws {
        #expect(try BondDocument(parsing: Self.goldenText()) == Self.golden)
    }

    @Test func writesTheGoldenFileByteForByte() throws {
        #expect(Self.golden.serialized() == (try Self.goldenText()))
    }

    @Test func roundTripsThroughText() throws {
        #expect(try BondDocument(parsing: Self.golden.serialized()) == Self.golden)
    }

    /// A version-1 file from before these members reads as it did and is written back
    /// unchanged: nothing is added for counters that never moved or a peer the server
    /// kept nothing for.
    @Test func aFileWithoutThemIsWrittenBackUnchanged() throws {
        let text = try BondDocumentTests.goldenText()
        let document = try BondDocument(parsing: text)
        #expect(document.adapters[0].gattClients.isEmpty)
        #expect(document.adapters[0].bonds.allSatisfy { $0.peerSignCounter == nil && $0.localSignCounter == 0 })
        #expect(document.serialized() == text)
    }

    /// The golden state, taken up by a server serving the database it was recorded
    /// against (the heart-rate database the GATT tests use, whose hash Bumble agrees
    /// with), applies as recorded: the file's handles, UUIDs and hash mean what the
    /// server means by them.
    @Test func theGoldenStateRestoresIntoItsDatabase() throws {
        let service = GATTService(uuid: BluetoothUUID(0x180D), characteristics: [
            GATTCharacteristic(uuid: BluetoothUUID(0x2A37), properties: [.notify], value: .dynamic()),
            GATTCharacteristic(uuid: BluetoothUUID(0x2A38), properties: [.read], value: .bytes([0x01])),
            GATTCharacteristic(uuid: BluetoothUUID(0x2A39), properties: [.write], value: .dynamic(write: { _ in nil })),
        ])
        let server = GATTServer(database: try GATTDatabase(services: [service]))
        #expect(server.database.databaseHash == Self.heartRateHash)
        let adapter = try BondDocument(parsing: Self.goldenText()).adapters[0]
        let peer = adapter.bonds[0].peer
        let recorded = try #require(adapter.gattClients[peer])
        #expect(server.restoreBondedClient(recorded, for: peer) == recorded)
        #expect(server.bondedClientChanges.isEmpty)
    }

    /// Values at the edges of their ranges, and what the golden file leaves out: a
    /// 128-bit UUID, both bits of a configuration, no subscription, an empty Client
    /// Supported Features value, Service Changed owed over every handle, counters at 0.
    @Test func edgesRoundTrip() throws {
        var bond = BondDocumentTests.golden.adapters[0].bonds[0]
        bond.peerSignCounter = 0
        bond.localSignCounter = 1
        let uuid = try #require(BluetoothUUID("6E400003-B5A3-F393-E0A9-E50E24DCCA9E"))
        let clients: [GATTBondedClient] = [
            GATTBondedClient(subscriptions: [.init(valueHandle: 0xFFFF, characteristic: uuid, configuration: [.notification, .indication]),
                                             .init(valueHandle: 0x0001, characteristic: BluetoothUUID(uuid32: 0x0000_180D),
                                                   configuration: .notification)],
                             clientSupportedFeatures: [], changeAware: false, serviceChangeOwed: 0x0001...0xFFFF,
                             databaseHash: .max),
            GATTBondedClient(databaseHash: 0),
        ]
        for client in clients {
            var adapter = BondDocumentTests.golden.adapters[1]
            adapter.bonds = [bond]
            adapter.gattClients = [bond.peer: client]
            let document = BondDocument(adapters: [adapter])
            let read = try BondDocument(parsing: document.serialized())
            var sorted = client
            sorted.subscriptions.sort { $0.valueHandle < $1.valueHandle }
            #expect(read.adapters[0].gattClients[bond.peer] == sorted)
            #expect(read.adapters[0].bonds == [bond])
        }
    }

    /// The counters are left out until they move: a bond that never signed has neither.
    @Test func countersAreWrittenOnceTheyMove() throws {
        var bond = BondDocumentTests.golden.adapters[0].bonds[0]
        func keys() throws -> [String] {
            var adapter = BondDocumentTests.golden.adapters[1]
            adapter.bonds = [bond]
            let json = try JSONValue.parse(BondDocument(adapters: [adapter]).serialized())
            guard case let .object(members)? = json["identities"]?["tcp:127.0.0.1:9000"]?["bonds"]?[0] else { return [] }
            return members.map(\.key).filter { $0.hasSuffix("SignCounter") }
        }
        #expect(try keys() == [])
        bond.localSignCounter = 1
        #expect(try keys() == ["localSignCounter"])
        bond.peerSignCounter = 0
        #expect(try keys() == ["peerSignCounter", "localSignCounter"])
    }

    /// GATT state kept for a peer whose bond is gone is not written: the bond carries it.
    @Test func stateWithoutABondIsNotKept() throws {
        var document = Self.golden
        let peer = document.adapters[0].bonds[0].peer
        document.setBonds([document.adapters[0].bonds[1]], of: document.adapters[0].name)
        #expect(document.adapters[0].gattClients[peer] == nil)
        #expect(document.adapters[0].gattClients.count == 1)
        let adapter = BondDocument.Adapter(name: AdapterIdentifier("x"), identity: document.adapters[0].identity,
                                           gattClients: Self.golden.adapters[0].gattClients)
        #expect(adapter.gattClients.isEmpty)
    }
}
