import SwiftATTCore
import SwiftATTGATT
@testable import SwiftATTHost
import SwiftATTPDU
import SwiftATTSecurity
import Synchronization
import Testing

/// `BondSync` on its own, fed turns with the times it would see: when what a GATT
/// server keeps for bonded clients (and staged sign counters) reaches the store's
/// `persist`, and what the server hears of the store.
@Suite struct BondSyncTests {
    static let peer = BluetoothAddress(0xC0B0_0000_0001, kind: .random)
    static let bond = Bond(peer: peer, centralKey: nil, peripheralKey: LongTermKey(key: 0x1234),
                           peerSignatureKey: 0x5678, authenticated: false, secureConnections: true, keySize: 16)
    static let start = MonotonicInstant.now

    static func at(milliseconds: Int) -> MonotonicInstant { start + .milliseconds(milliseconds) }

    /// What reached `persist`, and whether it fails.
    final class Storage: Sendable {
        let written = Mutex<[BondStore.Contents]>([])
        let failing = Atomic<Bool>(false)
        static let failure = SecurityStorageError("the disk is full")

        var writes: [BondStore.Contents] { written.withLock { $0 } }

        func store(_ bonds: [Bond] = [BondSyncTests.bond]) -> BondStore {
            BondStore(bonds) { [self] (contents: BondStore.Contents) throws(SecurityStorageError) in
                if failing.load(ordering: .relaxed) { throw Self.failure }
                written.withLock { $0.append(contents) }
            }
        }
    }

    /// A server whose database has two values to subscribe to (CCCDs 0x0011 and 0x0014),
    /// with the bonded peer connected on connection 1.
    static func server() throws -> GATTServer {
        let service = GATTService(uuid: BluetoothUUID(0x180D), characteristics: [
            GATTCharacteristic(uuid: BluetoothUUID(0x2A37), properties: [.notify]),
            GATTCharacteristic(uuid: BluetoothUUID(0x2A19), properties: [.read, .notify], value: .bytes([0x64])),
        ])
        let server = GATTServer(database: try GATTDatabase(services: [service]))
        server.connect(1, bond: peer)
        return server
    }

    static func write(_ server: GATTServer, cccd handle: UInt16, _ value: [UInt8]) {
        let request = WriteRequest(handle: handle, value: value[...])
        _ = server.handle(.writeRequest(request), from: 1, mtu: 23)
    }

    @Test func aChangeAfterAQuietIntervalIsWrittenInItsTurn() throws {
        let storage = Storage()
        let sync = BondSync(store: storage.store())
        let server = try Self.server()
        #expect(!sync.hasWork(server: server))
        Self.write(server, cccd: 0x0011, [0x01, 0x00])
        #expect(sync.hasWork(server: server))
        sync.turn(server: server, now: Self.at(milliseconds: 0))
        #expect(storage.writes.count == 1)
        #expect(storage.writes.last?.gattClients[Self.peer]?.subscriptions.map(\.valueHandle) == [0x0010])
        #expect(sync.nextDeadline == nil)
        #expect(!sync.hasWork(server: server))
    }

    /// Changes within the interval after a write wait for its end and go in one write:
    /// subscriptions and a sign counter alike.
    @Test func changesWithinTheIntervalGoTogetherAtItsEnd() throws {
        let storage = Storage()
        let store = storage.store()
        let sync = BondSync(store: store)
        let server = try Self.server()
        Self.write(server, cccd: 0x0011, [0x01, 0x00])
        sync.turn(server: server, now: Self.at(milliseconds: 0))
        Self.write(server, cccd: 0x0014, [0x01, 0x00])
        sync.turn(server: server, now: Self.at(milliseconds: 100))
        var counted = Self.bond
        counted.peerSignCounter = 9
        store.stage(counted)
        sync.turn(server: server, now: Self.at(milliseconds: 400))
        #expect(storage.writes.count == 1)
        #expect(sync.nextDeadline == Self.at(milliseconds: 1000))
        sync.turn(server: server, now: Self.at(milliseconds: 999))
        #expect(storage.writes.count == 1)
        sync.turn(server: server, now: Self.at(milliseconds: 1000))
        #expect(storage.writes.count == 2)
        #expect(storage.writes.last?.bonds == [counted])
        #expect(storage.writes.last?.gattClients[Self.peer]?.subscriptions.map(\.valueHandle) == [0x0010, 0x0013])
        #expect(sync.nextDeadline == nil)
    }

    /// A flood of changes costs one write per interval.
    @Test func aFloodIsWrittenOncePerInterval() throws {
        let storage = Storage()
        let sync = BondSync(store: storage.store())
        let server = try Self.server()
        for step in 0..<300 {
            Self.write(server, cccd: 0x0011, step % 2 == 0 ? [0x01, 0x00] : [0x00, 0x00])
            sync.turn(server: server, now: Self.at(milliseconds: step * 10))
        }
        #expect(storage.writes.count == 3, "at 0, 1 and 2 seconds")
    }

    @Test func aTurnWithoutChangesWritesNothing() throws {
        let storage = Storage()
        let sync = BondSync(store: storage.store())
        let server = try Self.server()
        _ = server.handle(.readRequest(ReadRequest(handle: 0x0011)), from: 1, mtu: 23)
        _ = server.update(valueHandle: 0x0010, value: [0x01])
        #expect(!sync.hasWork(server: server))
        sync.turn(server: server, now: Self.at(milliseconds: 0))
        #expect(storage.writes.isEmpty)
    }

    /// The disconnection of a bonded client is looked at; one that changes nothing of
    /// what the store holds writes nothing.
    @Test func aDisconnectionThatChangesNothingWritesNothing() throws {
        let storage = Storage()
        let sync = BondSync(store: storage.store())
        let server = try Self.server()
        Self.write(server, cccd: 0x0011, [0x01, 0x00])
        sync.turn(server: server, now: Self.at(milliseconds: 0))
        server.disconnect(1)
        #expect(sync.hasWork(server: server))
        sync.turn(server: server, now: Self.at(milliseconds: 5000))
        #expect(storage.writes.count == 1)
    }

    @Test func whatWaitsIsWrittenWhenTheHostStops() throws {
        let storage = Storage()
        let sync = BondSync(store: storage.store())
        let server = try Self.server()
        Self.write(server, cccd: 0x0011, [0x01, 0x00])
        sync.turn(server: server, now: Self.at(milliseconds: 0))
        Self.write(server, cccd: 0x0014, [0x01, 0x00])
        sync.finish(server: server)
        #expect(storage.writes.count == 2)
        #expect(storage.writes.last?.gattClients[Self.peer]?.subscriptions.count == 2)
    }

    /// A failed write is reported once, with the peers it held, and tried again with the
    /// next change rather than every turn.
    @Test func aFailedWriteIsReportedAndTriedAgainWithTheNextChange() throws {
        let storage = Storage()
        let sync = BondSync(store: storage.store())
        let failures = Mutex<[(Set<BluetoothAddress>, SecurityStorageError)]>([])
        sync.failed = { peers, error in failures.withLock { $0.append((peers, error)) } }
        let server = try Self.server()
        storage.failing.store(true, ordering: .relaxed)
        Self.write(server, cccd: 0x0011, [0x01, 0x00])
        sync.turn(server: server, now: Self.at(milliseconds: 0))
        #expect(failures.withLock { $0.map(\.0) } == [[Self.peer]])
        #expect(failures.withLock { $0.map(\.1) } == [Storage.failure])
        #expect(!sync.hasWork(server: server))
        sync.turn(server: server, now: Self.at(milliseconds: 5000))
        #expect(failures.withLock { $0.count } == 1)

        storage.failing.store(false, ordering: .relaxed)
        Self.write(server, cccd: 0x0014, [0x01, 0x00])
        sync.turn(server: server, now: Self.at(milliseconds: 6000))
        #expect(storage.writes.count == 1)
        #expect(storage.writes.last?.gattClients[Self.peer]?.subscriptions.count == 2, "the failed change with it")
    }

    /// The removals the store tells of, in order (what the host would queue on its loop).
    final class Removals: Sendable {
        let told = Mutex<[Set<BluetoothAddress>]>([])
        var all: [Set<BluetoothAddress>] { told.withLock { $0 } }
        func observe(_ sync: BondSync) { sync.observeRemovals { [self] peers in told.withLock { $0.append(peers) } } }
    }

    @Test func aBondRemovedFromTheStoreIsForgottenByTheServer() throws {
        let storage = Storage()
        let store = storage.store()
        let sync = BondSync(store: store)
        let removals = Removals()
        removals.observe(sync)
        let server = try Self.server()
        server.disconnect(1)
        sync.turn(server: server, now: Self.at(milliseconds: 0))
        #expect(server.bondedIdentities == [Self.peer])
        #expect(try store.remove(Self.peer))
        #expect(removals.all == [[Self.peer]], "told before remove returned")
        sync.forget(removals.all[0], in: server)
        #expect(server.bondedIdentities.isEmpty)
        #expect(!sync.hasWork(server: server))
    }

    /// Removed and saved again before the loop ran (the keys restored): the server
    /// still forgets, and so does the store what a turn in between staged from it.
    @Test func aBondRemovedAndSavedAgainIsForgottenAllTheSame() throws {
        let storage = Storage()
        let store = storage.store()
        let sync = BondSync(store: store)
        let removals = Removals()
        removals.observe(sync)
        let server = try Self.server()
        Self.write(server, cccd: 0x0011, [0x01, 0x00])
        #expect(try store.remove(Self.peer))
        try store.save(Self.bond)
        sync.turn(server: server, now: Self.at(milliseconds: 0))
        #expect(store.gattClient(of: Self.peer) != nil, "the server's state, staged before it heard")
        sync.forget(removals.all.reduce([], { $0.union($1) }), in: server)
        #expect(!server.bondedIdentities.contains(Self.peer))
        #expect(store.gattClient(of: Self.peer) == nil)
        #expect(store.bonds == [Self.bond])
    }

    /// Removals are told to the store the host uses now, and to none once it stops.
    @Test func removalsFollowTheStoreAndEndWithTheHost() throws {
        let oldStore = Storage().store()
        let sync = BondSync(store: oldStore)
        let removals = Removals()
        removals.observe(sync)
        let newStore = Storage().store()
        sync.adopt(newStore, server: nil)
        try oldStore.removeAll()
        #expect(removals.all.isEmpty)
        try newStore.removeAll()
        #expect(removals.all == [[Self.peer]])
        sync.finish(server: nil)
        try newStore.save(Self.bond)
        #expect(try newStore.remove(Self.peer))
        #expect(removals.all.count == 1)
    }

    /// A store swapped in: the server forgets the clients it has no bond with and takes
    /// up what it kept for the others; the old store hears no more.
    @Test func aStoreAdoptedIsTakenUp() throws {
        let oldStorage = Storage()
        let sync = BondSync(store: oldStorage.store())
        let server = try Self.server()
        let stranger = BluetoothAddress(0xC0B0_0000_0002, kind: .random)
        server.connect(2, bond: stranger)
        server.disconnect(2)
        let kept = GATTBondedClient(
            subscriptions: [.init(valueHandle: 0x0013, characteristic: BluetoothUUID(0x2A19), configuration: .notification)],
            databaseHash: server.database.databaseHash)
        let newStorage = Storage()
        sync.adopt(BondStore([Self.bond], gattClients: [Self.peer: kept], persist: { (contents: BondStore.Contents) throws(SecurityStorageError) in
            newStorage.written.withLock { $0.append(contents) }
        }), server: server)
        #expect(server.bondedIdentities == [Self.peer])
        server.disconnect(1)
        // Connected when the store came, the client's connection state is what is kept
        // at its disconnection — and written to the new store.
        sync.turn(server: server, now: Self.at(milliseconds: 0))
        #expect(oldStorage.writes.isEmpty)
        #expect(newStorage.writes.count == 1)
        server.connect(3, bond: Self.peer)
        #expect(server.bondedClient(Self.peer)?.subscriptions.isEmpty == true)
    }

    /// A server installed after the store: it takes up what the store kept.
    @Test func aServerLoadsWhatTheStoreKept() throws {
        let server = GATTServer(database: try Self.server().database)
        let kept = GATTBondedClient(
            subscriptions: [.init(valueHandle: 0x0013, characteristic: BluetoothUUID(0x2A19), configuration: .notification)],
            databaseHash: server.database.databaseHash)
        let sync = BondSync(store: BondStore([Self.bond], gattClients: [Self.peer: kept]))
        sync.load(into: server)
        #expect(server.bondedClient(Self.peer) == kept)
        #expect(!sync.hasWork(server: server))
    }
}
