import SwiftATTPDU
import SwiftATTCore
import SwiftATTGATT
import Testing

/// What the server keeps for bonded clients as a value its owner stores
/// (`GATTBondedClient`): exported, taken back by a server of a later run (reconciled
/// against a changed database), and the Service Changed range owed until the client
/// confirms it (Core 5.4 Vol 3 Part G §2.5.2.1, §3.3.3.3, §7.1). Against
/// `Fixtures.heartRate`: Service Changed value 0008 (CCCD 0009), Client Supported
/// Features 000B, Heart Rate Measurement value 0010 (CCCD 0011).
@Suite("GATT server: bonded clients")
struct GATTServerBondedClientTests {
    static let peer = BluetoothAddress(0xC0B0_0000_0001, kind: .random)
    static let serviceChangedHandle: UInt16 = 0x0008
    static let measurementHandle: UInt16 = 0x0010

    /// A bonded client that enabled Service Changed, subscribed to the measurement and
    /// set Robust Caching, then left.
    static func visited() throws -> GATTServer {
        let server = GATTServer(database: try Fixtures.heartRate().database)
        server.connect(1, bond: peer)
        _ = try server.respond("12 0900 0200", from: 1)
        _ = try server.respond("12 1100 0100", from: 1)
        _ = try server.respond("12 0b00 01", from: 1)
        server.disconnect(1)
        return server
    }

    static func recorded(hash: UInt128, changeAware: Bool = true, owed: ClosedRange<UInt16>? = nil,
                         subscriptions: [GATTBondedClient.Subscription]? = nil) -> GATTBondedClient {
        GATTBondedClient(
            subscriptions: subscriptions ?? [
                .init(valueHandle: serviceChangedHandle, characteristic: BluetoothUUID(0x2A05), configuration: .indication),
                .init(valueHandle: measurementHandle, characteristic: BluetoothUUID(0x2A37), configuration: .notification),
            ],
            clientSupportedFeatures: [0x01], changeAware: changeAware, serviceChangeOwed: owed, databaseHash: hash)
    }

    static func hex(_ pdus: [ATTPDU]) -> [String] { pdus.map { Hex.encode($0.encoded()) } }

    // MARK: Export

    @Test("exported: each subscription by value handle and UUID, the features, the hash")
    func export() throws {
        let server = try Self.visited()
        #expect(server.bondedClient(Self.peer) == Self.recorded(hash: server.database.databaseHash))
        #expect(server.bondedIdentities == [Self.peer])
        #expect(server.bondedClient(BluetoothAddress(0xC0B0_0000_0002, kind: .random)) == nil)
        // Connected again: the connection's state is what is exported.
        server.connect(2, bond: Self.peer)
        _ = try server.respond("12 1100 0000", from: 2)
        let connected = try #require(server.bondedClient(Self.peer))
        #expect(connected.subscriptions.map(\.valueHandle) == [Self.serviceChangedHandle])
    }

    @Test("bondedClientChanges: what a bonded client changes, and its disconnection; nothing else")
    func changes() throws {
        let server = GATTServer(database: try Fixtures.heartRate().database)
        server.connect(1, bond: Self.peer)
        server.connect(2)
        #expect(server.takeBondedClientChanges().isEmpty)
        _ = try server.respond("12 1100 0100", from: 2)
        #expect(server.takeBondedClientChanges().isEmpty, "a client that is not bonded")
        _ = try server.respond("12 1100 0100", from: 1)
        #expect(server.takeBondedClientChanges() == [Self.peer])
        #expect(server.takeBondedClientChanges().isEmpty, "taken")
        _ = try server.respond("12 1100 0100", from: 1)
        _ = try server.respond("0a 1100", from: 1)
        #expect(server.bondedClientChanges.isEmpty, "the same value again, and a read, change nothing")
        _ = try server.respond("12 0b00 01", from: 1)
        #expect(server.takeBondedClientChanges() == [Self.peer], "Client Supported Features")
        _ = try server.respond("12 0b00 01", from: 1)
        #expect(server.bondedClientChanges.isEmpty)
        _ = server.update(valueHandle: Self.measurementHandle, value: [0x00, 0x48])
        #expect(server.bondedClientChanges.isEmpty, "a notification")
        server.disconnect(1)
        #expect(server.takeBondedClientChanges() == [Self.peer])
        server.disconnect(2)
        #expect(server.bondedClientChanges.isEmpty)
    }

    @Test("a client that becomes change-aware again is a change")
    func changeAwareness() throws {
        let server = try Self.visited()
        _ = server.takeBondedClientChanges()
        _ = server.replaceDatabase(try Fixtures.heartRate().database)
        #expect(server.takeBondedClientChanges() == [Self.peer], "the away client is change-unaware now")
        #expect(server.bondedClient(Self.peer)?.changeAware == false)
        let owed = server.connect(2, bond: Self.peer)
        #expect(Self.hex(owed) == ["1d08000100ffff"])
        #expect(server.takeBondedClientChanges().isEmpty)
        server.indicationConfirmed(valueHandle: Self.serviceChangedHandle, by: 2)
        #expect(server.takeBondedClientChanges() == [Self.peer])
        #expect(server.bondedClient(Self.peer)?.changeAware == true)
    }

    // MARK: Import

    @Test("restored against the same database: everything as recorded")
    func restoreSameDatabase() throws {
        let recorder = Recorder()
        let server = GATTServer(database: try Fixtures.heartRate(recorder: recorder).database)
        let client = Self.recorded(hash: server.database.databaseHash, changeAware: false, owed: 0x000E...0x0015)
        #expect(server.restoreBondedClient(client, for: Self.peer) == client)
        #expect(server.bondedClientChanges.isEmpty, "nothing to store again")
        #expect(server.bondedClient(Self.peer) == client)
        let owed = server.connect(1, bond: Self.peer)
        #expect(Self.hex(owed) == ["1d08000e001500"])
        #expect(recorder.changes(of: server) == ["1 0008 2 restored", "1 0010 1 restored"])
        #expect(server.clientSupportedFeatures(of: 1) == [0x01])
        // Change-unaware under Robust Caching: a read at a handle is Database Out Of Sync.
        #expect(try server.respond("0a 0300", from: 1) == "010a030012")
        #expect(server.update(valueHandle: Self.measurementHandle, value: [0x00, 0x48]).isEmpty)
    }

    @Test("restored against another database: what still matches, change-unaware, Service Changed over everything")
    func restoreChangedDatabase() throws {
        let server = GATTServer(database: try Fixtures.heartRate().database)
        let other = server.database.databaseHash ^ 1
        let client = Self.recorded(hash: other, subscriptions: [
            .init(valueHandle: Self.serviceChangedHandle, characteristic: BluetoothUUID(0x2A05), configuration: .indication),
            // Another characteristic is at 0x0010 now.
            .init(valueHandle: Self.measurementHandle, characteristic: BluetoothUUID(0x2A19), configuration: .notification),
            // 0x0013 is Body Sensor Location, which does not notify.
            .init(valueHandle: 0x0013, characteristic: BluetoothUUID(0x2A38), configuration: .notification),
            // Nothing there.
            .init(valueHandle: 0x0040, characteristic: BluetoothUUID(0x2A37), configuration: .notification),
        ])
        let kept = server.restoreBondedClient(client, for: Self.peer)
        #expect(kept == GATTBondedClient(
            subscriptions: [.init(valueHandle: Self.serviceChangedHandle, characteristic: BluetoothUUID(0x2A05),
                                  configuration: .indication)],
            clientSupportedFeatures: [0x01], changeAware: false, serviceChangeOwed: 0x0001...0xFFFF,
            databaseHash: server.database.databaseHash))
        #expect(server.takeBondedClientChanges() == [Self.peer], "the reconciled state is stored again")
        #expect(Self.hex(server.connect(1, bond: Self.peer)) == ["1d08000100ffff"])
        // Change-unaware under Robust Caching: Database Out Of Sync once, then served.
        #expect(try server.respond("0a 1100", from: 1) == "010a110012")
        #expect(try server.respond("0a 1100", from: 1) == "0b0000")
    }

    @Test("restored against another database: a subscription whose handle and UUID match stays")
    func restoreKeepsMatches() throws {
        let server = GATTServer(database: try Fixtures.heartRate().database)
        let kept = server.restoreBondedClient(Self.recorded(hash: 0x1234), for: Self.peer)
        #expect(kept.subscriptions == Self.recorded(hash: 0).subscriptions)
        #expect(kept.changeAware == false)
        server.connect(1, bond: Self.peer)
        #expect(try server.respond("0a 1100", from: 1) == "010a110012")
        #expect(try server.respond("0a 1100", from: 1) == "0b0100")
    }

    @Test("a client not subscribed to Service Changed is owed nothing: nothing could tell it")
    func restoreWithoutServiceChanged() throws {
        let server = GATTServer(database: try Fixtures.heartRate().database)
        let client = Self.recorded(hash: 0x1234, owed: 0x0010...0x0020, subscriptions: [
            .init(valueHandle: Self.measurementHandle, characteristic: BluetoothUUID(0x2A37), configuration: .notification),
        ])
        let kept = server.restoreBondedClient(client, for: Self.peer)
        #expect(kept.serviceChangeOwed == nil)
        #expect(kept.changeAware == false)
        #expect(server.connect(1, bond: Self.peer).isEmpty)
    }

    @Test("restoring while the client is connected leaves its connection's state")
    func restoreWhileConnected() throws {
        let server = GATTServer(database: try Fixtures.heartRate().database)
        server.connect(1, bond: Self.peer)
        _ = try server.respond("12 1100 0100", from: 1)
        server.restoreBondedClient(GATTBondedClient(databaseHash: server.database.databaseHash), for: Self.peer)
        #expect(try server.respond("0a 1100", from: 1) == "0b0100")
        server.disconnect(1)
        #expect(server.bondedClient(Self.peer)?.subscriptions.count == 1)
    }

    // MARK: Service Changed owed until confirmed

    @Test("an owed indication not confirmed before the link went down is owed again")
    func owedUntilConfirmed() throws {
        let server = try Self.visited()
        #expect(server.replaceDatabase(try GATTServerServiceChangedTests.newDatabase(), changedRange: 0x000E...0x0015).isEmpty)
        #expect(server.bondedClient(Self.peer)?.serviceChangeOwed == 0x000E...0x0015)
        #expect(Self.hex(server.connect(1, bond: Self.peer)) == ["1d08000e001500"])
        #expect(server.bondedClient(Self.peer)?.serviceChangeOwed == 0x000E...0x0015, "sent, not confirmed")
        server.disconnect(1)
        #expect(server.bondedClient(Self.peer)?.serviceChangeOwed == 0x000E...0x0015)
        #expect(Self.hex(server.connect(2, bond: Self.peer)) == ["1d08000e001500"])
        server.indicationConfirmed(valueHandle: Self.serviceChangedHandle, by: 2)
        #expect(server.bondedClient(Self.peer)?.serviceChangeOwed == nil)
        server.disconnect(2)
        #expect(server.connect(3, bond: Self.peer).isEmpty)
    }

    @Test("an indication sent to a connected bonded client that leaves before confirming is owed at its next connection")
    func indicatedThenGone() throws {
        let server = GATTServer(database: try Fixtures.heartRate().database)
        server.connect(1, bond: Self.peer)
        _ = try server.respond("12 0900 0200", from: 1)
        // The database changes while the link is going down: the indication goes out
        // and its confirmation never comes.
        #expect(server.replaceDatabase(try GATTServerServiceChangedTests.newDatabase(), changedRange: 0x000E...0xFFFF)
            .described == ["1: 1d08000e00ffff"])
        server.disconnect(1)
        #expect(Self.hex(server.connect(2, bond: Self.peer)) == ["1d08000e00ffff"])
    }

    @Test("confirmations pay the owed ranges in the order they were indicated")
    func confirmationsInOrder() throws {
        let server = try Self.visited()
        _ = server.serviceChangedIndication(0x000E...0x0015)
        #expect(Self.hex(server.connect(1, bond: Self.peer)) == ["1d08000e001500"])
        #expect(server.serviceChangedIndication(0x0020...0x0030).described == ["1: 1d080020003000"])
        #expect(server.bondedClient(Self.peer)?.serviceChangeOwed == 0x000E...0x0030)
        server.indicationConfirmed(valueHandle: Self.measurementHandle, by: 1)
        #expect(server.bondedClient(Self.peer)?.serviceChangeOwed == 0x000E...0x0030, "another value's confirmation")
        server.indicationConfirmed(valueHandle: Self.serviceChangedHandle, by: 1)
        #expect(server.bondedClient(Self.peer)?.serviceChangeOwed == 0x0020...0x0030)
        server.disconnect(1)
        #expect(Self.hex(server.connect(2, bond: Self.peer)) == ["1d080020003000"])
    }

    // MARK: Forgetting

    @Test("forgetBond: kept state goes, and a connected client's configuration ends with its link")
    func forget() throws {
        let server = try Self.visited()
        server.connect(2, bond: Self.peer)
        server.forgetBond(Self.peer)
        #expect(server.bondedIdentities.isEmpty)
        #expect(server.bondedClient(Self.peer) == nil)
        #expect(try server.respond("0a 1100", from: 2) == "0b0100", "the connection goes on as it was")
        server.disconnect(2)
        #expect(server.bondedClientChanges.isEmpty)
        server.connect(3, bond: Self.peer)
        #expect(try server.respond("0a 1100", from: 3) == "0b0000")
    }
}
