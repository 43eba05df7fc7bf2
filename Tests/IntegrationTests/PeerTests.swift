import SwiftATTPDU
import BenchSupport
import SwiftATTCore
import SwiftATTGATT
import SwiftATTHCI
import SwiftATTHost
import Testing
import SwiftATTTransport

/// swift-att's GATT client (`Peer`) against Bumble's GATT server (Tests/bench/bumble_server.py):
/// an independent implementation on the other end of Bumble's virtual radio.
@Suite(.serialized) struct PeerTests {
    static let serverAddress = "C0:B0:00:00:00:0A"
    static func test(_ n: UInt16) -> BluetoothUUID {
        BluetoothUUID("5A7E\(String(n, radix: 16, uppercase: true).leftPadded(4))-5EED-4A11-9C0D-5A7E00000000")!
    }

    /// A bench with Bumble's server on controller 0 and a connected swift-att central on 1.
    struct Session {
        let bench: BumbleBench
        let server: BumblePeer
        let central: Central
        let peer: Peer

        static func start() async throws -> Session {
            let bench = try await BumbleBench(controllers: 2)
            let server = try BumblePeer(bench: bench, controller: 0, address: PeerTests.serverAddress, arguments: [], script: "bumble_server.py")
            _ = try await server.next("ready")
            let central = try await Central.start(transport: try TransportSpecification(parsing: bench.transports[1]))
            let device = try #require(try await central.firstDevice(ScanFilter(services: [BluetoothUUID(0x180D)]), within: .seconds(5)))
            #expect(device.data.localName?.name == "Bumble HR")
            let peer = try await central.connect(device.address)
            _ = try await server.next("connected")
            return Session(bench: bench, server: server, central: central, peer: peer)
        }

        func stop() async {
            await central.close()
            server.stop()
            bench.stop()
        }
    }

    @Test func discoversReadsAndWrites() async throws {
        let s = try await Session.start()
        defer { s.server.stop(); s.bench.stop() }
        let peer = s.peer

        // Exchange MTU ran at connect: both sides offered more than 23.
        #expect(await peer.mtu > 23)
        let database = try await peer.discoverDatabase()
        let services = database.services.map(\.service.uuid)
        #expect(services.contains(BluetoothUUID(0x1800)))
        #expect(services.contains(BluetoothUUID(0x1801)))
        #expect(services.contains(BluetoothUUID(0x180D)))
        #expect(services.contains(Self.test(1)))
        // Bumble's GATT service has a Database Hash: 16 octets kept with the cache.
        #expect(database.databaseHash?.count == 16)
        let measurement = try #require(database.characteristics(uuid: BluetoothUUID(0x2A37)).first)
        #expect(measurement.properties == .notify)
        #expect(database.clientConfigurationHandle(of: measurement) != nil)
        let location = try #require(database.characteristics(uuid: BluetoothUUID(0x2A38)).first)
        let controlPoint = try #require(database.characteristics(uuid: BluetoothUUID(0x2A39)).first)
        let long = try #require(database.characteristics(uuid: Self.test(2)).first)
        let command = try #require(database.characteristics(uuid: Self.test(3)).first)
        let protected = try #require(database.characteristics(uuid: Self.test(5)).first)
        let readOnly = try #require(database.characteristics(uuid: Self.test(6)).first)

        // Short and long reads.
        #expect(try await peer.read(location) == [0x01])
        #expect(try await peer.read(long) == (0..<300).map { UInt8($0 % 256) })

        // A write request, then a long write (Prepare/Execute), each seen by the server.
        try await peer.write([0x01], to: controlPoint)
        #expect(try await s.server.next("written")["value"] as? String == "01")
        let written = (0..<400).map { UInt8(($0 * 7) % 251) }
        try await peer.write(written, to: long)
        #expect(try await s.server.next("written")["value"] as? String == Hex.encode(written))
        #expect(try await peer.read(long) == written)

        // Write Commands arrive, all and in order.
        for n in 0..<20 { try await peer.write([UInt8(n), 0xAA], to: command, type: .withoutResponse) }
        for n in 0..<20 {
            #expect(try await s.server.next("written")["value"] as? String == Hex.encode([UInt8(n), 0xAA]))
        }

        // A reliable write: two parts at offsets, echoes checked, executed together.
        try await peer.reliableWrite([.init(handle: long.valueHandle, value: [1, 2, 3]), .init(handle: long.valueHandle, value: [4, 5], offset: 3)])
        #expect(try await s.server.next("written")["value"] as? String == "0102030405")

        // A value that needs encryption: Bumble refuses the read with Insufficient
        // Encryption, swift-att pairs (Just Works, LE Secure Connections) and reads again.
        #expect(await peer.securityLevel == .none)
        #expect(try await peer.read(protected) == Array("secret".utf8))
        #expect(await peer.securityLevel == .encrypted(keySize: 16))
        // The server's refusals arrive as typed errors naming request and handle.
        await #expect(throws: GATTClientError.attributeError(.writeNotPermitted, handle: readOnly.valueHandle, request: .writeRequest)) {
            try await peer.write([0], to: readOnly)
        }
        // Descriptors, Read Using Characteristic UUID, Read Multiple.
        let description = try #require(database.descriptors(of: readOnly).first { $0.uuid == BluetoothUUID(0x2901) })
        #expect(String(decoding: try await peer.read(description), as: UTF8.self) == "A read-only value")
        #expect(try await peer.read(using: BluetoothUUID(0x2A38)) == [GATTClient.HandleValue(handle: location.valueHandle, value: [1])])
        #expect(try await peer.readMultiple([(location.valueHandle, 1), (readOnly.valueHandle, 9)]) == [[1], Array("read only".utf8)])

        // A cached database whose hash still matches is used without discovery.
        let again = try await peer.discoverDatabase(cached: database)
        #expect(again == database)
        await s.central.close()
    }

    @Test func notificationsIndicationsAndServiceChanged() async throws {
        let s = try await Session.start()
        defer { s.server.stop(); s.bench.stop() }
        let peer = s.peer
        let database = try await peer.discoverDatabase()
        let changes = peer.serviceChanges()
        let measurement = try #require(database.characteristics(uuid: BluetoothUUID(0x2A37)).first)
        let indicated = try #require(database.characteristics(uuid: Self.test(4)).first)

        do {
            let heartRates = try await peer.notifications(of: measurement)
            #expect(try await s.server.next("subscribed") { $0["uuid"] as? String == "2A37" }["notify"] as? Bool == true)
            for bpm in [60, 61, 62] as [UInt8] { s.server.send("notify 00\(Hex.encode([bpm]))") }
            var received: [[UInt8]] = []
            for try await value in heartRates {
                #expect(!value.isIndication && value.handle == measurement.valueHandle)
                received.append(value.value)
                if received.count == 3 { break }
            }
            #expect(received == [[0, 60], [0, 61], [0, 62]])
        }
        // Dropping the stream unsubscribed.
        #expect(try await s.server.next("subscribed") { $0["uuid"] as? String == "2A37" }["notify"] as? Bool == false)

        let indications = try await peer.notifications(of: indicated)
        #expect(try await s.server.next("subscribed") { ($0["uuid"] as? String)?.hasPrefix("5A7E0004") == true }["indicate"] as? Bool == true)

        s.server.send("indicate c0ffee")
        var indicationIterator = indications.makeAsyncIterator()
        let indication = try #require(try await indicationIterator.next())
        #expect(indication == GATTNotification(handle: indicated.valueHandle, value: [0xC0, 0xFF, 0xEE], isIndication: true))
        // Bumble only completes indicate_subscribers once our confirmation arrived.
        _ = try await s.server.next("indicated")

        // Service Changed: the new service's range is discovered and in the cache.
        s.server.send("add-service")
        let added = try await s.server.next("service-added")
        var changeIterator = changes.makeAsyncIterator()
        let change = try #require(await changeIterator.next())
        #expect(change.changedRange.lowerBound == UInt16(added["start"] as! Int))
        let newService = try #require(peer.database.services(uuid: Self.test(0x1001)).first)
        #expect(try await peer.read(try #require(peer.database.characteristics(uuid: Self.test(0x1002), in: newService).first)) == Array("new".utf8))

        // The peer disconnects: the open stream ends with the reason, new calls fail.
        s.server.send("disconnect")
        await #expect(throws: GATTClientError.self) {
            while try await indicationIterator.next() != nil {}
        }
        do {
            _ = try await peer.read(measurement)
            Issue.record("a read on a link that is gone succeeded")
        } catch {
            guard case .disconnected = error else { return #expect(Bool(false), "\(error)") }
        }
        await s.central.close()
    }

    @Test func cancellingAProcedure() async throws {
        let s = try await Session.start()
        defer { s.server.stop(); s.bench.stop() }
        let peer = s.peer
        // A discovery cancelled before it starts, and one cancelled while it runs (a
        // whole-database discovery takes dozens of round trips through Bumble's Python):
        // both fail with .cancelled, and the link still serves the next call.
        let early = Task { try await peer.discoverDatabase() }
        early.cancel()
        await #expect(throws: GATTClientError.cancelled) { _ = try await early.value }
        // Task.immediate returns once the discovery is handed to the loop; the link is
        // idle, so the loop starts it (its first request goes out) before it takes the
        // cancellation, which is queued after it.
        let running = Task.immediate { try await peer.discoverDatabase() }
        running.cancel()
        await #expect(throws: GATTClientError.cancelled) { _ = try await running.value }
        let services = try await peer.discoverServices([BluetoothUUID(0x180D)])
        #expect(services.map(\.uuid) == [BluetoothUUID(0x180D)])
        await s.central.close()
    }

    @Test func linkParameters() async throws {
        let s = try await Session.start()
        defer { s.server.stop(); s.bench.stop() }
        let peer = s.peer
        // A connection parameter update the controller carries out (interval in 1.25 ms).
        let update = try await peer.updateConnectionParameters(.init(intervalMin: 40, intervalMax: 56, maxLatency: 0, supervisionTimeout: 500))
        #expect(update.status == .success)
        #expect((40...56).contains(update.connectionInterval), "\(update)")
        #expect(update.supervisionTimeout == 500)
        #expect(try await peer.readPHY().txPHY == .le1M)
        // Bumble's controller lists LE Set Data Length but answers Unknown HCI Command, and
        // never answers LE Set PHY (BENCH.md quirks 1 and 8): both fail, typed.
        await #expect(throws: CentralError.controller(.hci(.commandFailed(LESetDataLength.opcode, .unknownCommand)))) {
            _ = try await peer.setDataLength()
        }
        do {
            _ = try await peer.setPHY(tx: .le2M, rx: .le2M)
            Issue.record("LE Set PHY succeeded on a controller that never answers it")
        } catch {
            guard case .controller(.hci(.commandTimedOut(LESetPHY.opcode, _))) = error else { return #expect(Bool(false), "\(error)") }
        }
        // The link still works.
        #expect(try await peer.discoverServices([BluetoothUUID(0x180D)]).count == 1)
        await s.central.close()
    }

    @Test func twoLinksAtOnce() async throws {
        let bench = try await BumbleBench(controllers: 3)
        defer { bench.stop() }
        let first = try BumblePeer(bench: bench, controller: 0, address: "C0:B0:00:00:00:0A", arguments: ["--name", "Bumble One"], script: "bumble_server.py")
        defer { first.stop() }
        let second = try BumblePeer(bench: bench, controller: 1, address: "C0:B0:00:00:00:0C", arguments: ["--name", "Bumble Two"], script: "bumble_server.py")
        defer { second.stop() }
        _ = try await first.next("ready")
        _ = try await second.next("ready")
        let central = try await Central.start(transport: try TransportSpecification(parsing: bench.transports[2]))
        let one = try await central.connect(try #require(BluetoothAddress("C0:B0:00:00:00:0A", kind: .random)))
        let two = try await central.connect(try #require(BluetoothAddress("C0:B0:00:00:00:0C", kind: .random)))
        #expect(one.handle != two.handle)
        // Both links run procedures at the same time, each on its own bearer.
        async let a = one.discoverDatabase()
        async let b = two.discoverDatabase()
        let (databaseOne, databaseTwo) = try await (a, b)
        let long = try #require(databaseOne.characteristics(uuid: Self.test(2)).first)
        async let readOne = one.read(long)
        async let readTwo = two.read(try #require(databaseTwo.characteristics(uuid: Self.test(2)).first))
        let (valueOne, valueTwo) = try await (readOne, readTwo)
        #expect(valueOne.count == 300 && valueOne == valueTwo)
        // Ending one leaves the other up.
        try await one.disconnect()
        _ = try await first.next("disconnected")
        await #expect(throws: GATTClientError.self) { _ = try await one.read(long) }
        #expect(try await two.read(long).count == 300)
        await central.close()
        _ = try await second.next("disconnected")
    }
}

extension String {
    func leftPadded(_ width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
