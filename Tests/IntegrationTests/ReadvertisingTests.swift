import SwiftATTAdvertising
import BenchSupport
import SwiftATTCore
import SwiftATTGATT
import SwiftATTHCI
import SwiftATTHost
import Testing
import SwiftATTTransport

/// A `Peripheral` advertises again by itself once a connection stopped its advertising
/// (`Readvertising`), with Bumble's hosts as the centrals: nobody calls `startAdvertising`
/// a second time in these tests, so every reconnection proves a restart.
@Suite(.serialized) struct ReadvertisingTests {
    static let addresses = ["C0:B0:00:00:00:31", "C0:B0:00:00:00:32"]

    /// Several centrals (the default): advertising resumes after each connection, so a
    /// second central connects while the first stays, and after both leave one comes back.
    @Test func advertisingResumesAfterEachConnectionAndDisconnection() async throws {
        try await withAdvertisingPeripheral(.default) { peripheral, log, clients in
            #expect(try await clients.run(["op": "connect", "client": 0])["exception"] == nil)
            let a = try await log.connection(from: Self.addresses[0])
            try await log.wait(for: "advertising resumed after A connected", from: a.position) { $0.isAdvertisingResumed }
            #expect(peripheral.isAdvertising)

            #expect(try await clients.run(["op": "connect", "client": 1])["exception"] == nil)
            let b = try await log.connection(from: Self.addresses[1])
            #expect(a.handle != b.handle)
            try await log.wait(for: "advertising resumed after B connected", from: b.position) { $0.isAdvertisingResumed }

            _ = try await clients.run(["op": "disconnect", "client": 0])
            _ = try await clients.run(["op": "disconnect", "client": 1])
            let mark = log.count
            #expect(try await clients.run(["op": "connect", "client": 0])["exception"] == nil)
            _ = try await log.connection(from: Self.addresses[0], from: mark)
            _ = try await clients.run(["op": "disconnect", "client": 0])
        }
    }

    /// One central at a time: advertising stays off while it is connected and resumes
    /// when it leaves.
    @Test func oneCentralAtATimeResumesOnlyAfterTheDisconnection() async throws {
        try await withAdvertisingPeripheral(.upTo(connections: 1)) { peripheral, log, clients in
            #expect(try await clients.run(["op": "connect", "client": 0])["exception"] == nil)
            let a = try await log.connection(from: Self.addresses[0])
            // A round trip over the link, then a pause: time for a restart that must not come.
            // The sleep is the window in which nothing may happen (an absence has no event
            // to await), not a wait for something to happen first.
            #expect(try await clients.run(["op": "mtu", "value": 100, "client": 0])["mtu"] as? Int == 100)
            try await Task.sleep(for: .milliseconds(300))
            #expect(!log.events.dropFirst(a.position).contains { $0.isAdvertisingResumed == true })
            #expect(!peripheral.isAdvertising)

            let mark = log.count
            _ = try await clients.run(["op": "disconnect", "client": 0])
            try await log.wait(for: "advertising resumed after the disconnection", from: mark) { $0.isAdvertisingResumed }
            #expect(peripheral.isAdvertising)
            #expect(try await clients.run(["op": "connect", "client": 1])["exception"] == nil)
            _ = try await log.connection(from: Self.addresses[1], from: mark)
            _ = try await clients.run(["op": "disconnect", "client": 1])
        }
    }

    /// `.off`: after the central leaves, advertising stays stopped until asked again.
    @Test func offLeavesAdvertisingStopped() async throws {
        try await withAdvertisingPeripheral(.off) { peripheral, log, clients in
            #expect(try await clients.run(["op": "connect", "client": 0])["exception"] == nil)
            let a = try await log.connection(from: Self.addresses[0])
            _ = try await clients.run(["op": "disconnect", "client": 0])
            try await log.wait(for: "the disconnection", from: a.position) { event -> Bool? in
                if case let .disconnected(handle, _) = event, handle == a.handle { return true }
                return nil
            }
            // The window in which a restart that must not come would show: an absence has
            // no event to await, so this sleep is the test, not a wait out of a race.
            try await Task.sleep(for: .milliseconds(300))
            #expect(!log.events.contains { $0.isAdvertisingResumed == true })
            #expect(!peripheral.isAdvertising)
        }
    }

    /// A peripheral serving a one-characteristic database on controller 0, advertising
    /// once, with two Bumble clients (controllers 1 and 2) that connect when told.
    func withAdvertisingPeripheral(
        _ readvertising: Readvertising,
        _ body: (Peripheral, PeripheralEventLog, BumbleClient) async throws -> Void
    ) async throws {
        let bench = try await BumbleBench(controllers: 3)
        defer { bench.stop() }
        let value = GATTCharacteristic(uuid: BluetoothUUID(0x2A19), properties: [.read], value: .fixed([50]))
        let database = try GATTDatabase(services: [GATTService(uuid: BluetoothUUID(0x180F), characteristics: [value])])
        let peripheral = try await Peripheral.start(
            transport: try TransportSpecification(parsing: bench.transports[0]), database: database, readvertising: readvertising)
        let log = PeripheralEventLog(peripheral.events())
        do {
            var advertisement = AdvertisingDataBuilder()
            try advertisement.append(.flags(.leGeneralDiscoverableLEOnly))
            _ = try advertisement.appendLocalName("readvertise")
            try await peripheral.startAdvertising(data: advertisement.advertisingData.encoded(), interval: .milliseconds(20))
            #expect(peripheral.isAdvertising)
            let clients = try BumbleClient(bench: bench, controllers: [1, 2], addresses: Self.addresses,
                                           target: peripheral.info.randomAddress, connect: false)
            defer { clients.stop() }
            _ = try await clients.next("ready")
            try await body(peripheral, log, clients)
        } catch {
            await peripheral.close()
            throw error
        }
        await peripheral.close()
    }
}

extension PeripheralEvent {
    /// `true` for `.advertisingResumed`, `nil` otherwise (a `PeripheralEventLog.wait` match).
    var isAdvertisingResumed: Bool? {
        if case .advertisingResumed = self { return true }
        return nil
    }
}

extension PeripheralEventLog {
    /// The connection from `address` at or after `start`: its handle and the log position
    /// just after it.
    func connection(from address: String, from start: Int = 0) async throws -> (handle: UInt16, position: Int) {
        let peer = try #require(BluetoothAddress(address, kind: .random))
        let handle = try await wait(for: "connection from \(address)", from: start) { event -> UInt16? in
            if case let .connected(handle, address) = event, address == peer { return handle }
            return nil
        }
        let logged = events
        let position = logged.indices.dropFirst(start).first { index in
            if case let .connected(h, a) = logged[index], h == handle, a == peer { return true }
            return false
        }.map { $0 + 1 } ?? start
        return (handle, position)
    }
}
