import BenchSupport
import SwiftATTAdvertising
import SwiftATTCore
import SwiftATTHCI
import SwiftATTHost
import Testing
import TestSupport
import SwiftATTTransport

/// swift-att against Bumble's own host: the bytes each side produces are read by an
/// independent implementation.
@Suite(.serialized) struct BumblePeerTests {
    /// Bumble advertises; swift-att scans, decodes Bumble's advertising data, connects
    /// and disconnects; Bumble reports the connection from swift-att's random address.
    @Test func swiftCentralAgainstBumblePeripheral() async throws {
        let bench = try await BumbleBench(controllers: 2)
        defer { bench.stop() }
        let peer = try BumblePeer(bench: bench, controller: 0, address: "C0:B0:00:00:00:01",
                                  arguments: ["advertise", "--name", "bumble-hr", "--service", "180D", "--service", "180A"])
        defer { peer.stop() }
        let ready = try await peer.next("ready")
        let bumbleAddress = try #require(BluetoothAddress(ready["address"] as? String ?? "", kind: .random))

        let controller = try await Controller.open(try TransportSpecification(parsing: bench.transports[1]))
        let info = try await controller.start()
        let scan = controller.events()
        _ = try await controller.send(LESetScanParameters(scanType: .active, scanInterval: 0x30, scanWindow: 0x30))
        _ = try await controller.send(LESetScanEnable(scanEnable: true))
        let data = try await first("Bumble's advertisement", in: scan) { event in
            LinkLayerTests.reports(event).first { $0.0 == bumbleAddress }?.1
        }
        _ = try await controller.send(LESetScanEnable(scanEnable: false))
        // The bytes Bumble says it advertised, decoded by our parser.
        #expect(Hex.encode(data) == ready["data"] as? String)
        let decoded = try AdvertisingData(parsing: data)
        #expect(decoded.localName?.name == "bumble-hr")
        #expect(decoded.serviceUUIDs == [BluetoothUUID(0x180D), BluetoothUUID(0x180A)])

        let events = controller.events()
        _ = try await controller.send(LECreateConnection(
            scanInterval: 0x30, scanWindow: 0x30, peerAddress: bumbleAddress,
            connectionParameters: LEConnectionParameters(intervalMin: 24, intervalMax: 40, maxLatency: 0, supervisionTimeout: 200)))
        let connection = try await first("LE Connection Complete", in: events, LinkLayerTests.connectionComplete)
        let connected = try await peer.next("connected")
        #expect(connected["peer"] as? String == info.randomAddress.description)
        #expect(connection.peer == bumbleAddress)

        _ = try await controller.send(Disconnect(connectionHandle: connection.handle))
        let disconnected = try await peer.next("disconnected")
        #expect(disconnected["reason"] as? Int == Int(HCIStatus.remoteUserTerminatedConnection.rawValue))
        await controller.close()
    }

    /// swift-att advertises data built by the Advertising target; Bumble's scanner
    /// parses it independently and finds the name and services.
    @Test func bumbleScannerReadsSwiftAdvertising() async throws {
        let bench = try await BumbleBench(controllers: 2)
        defer { bench.stop() }
        let controller = try await Controller.open(try TransportSpecification(parsing: bench.transports[0]))
        let info = try await controller.start()
        let data = try LinkLayerTests.advertisingData()
        try await LinkLayerTests.advertise(controller, data: data)

        let peer = try BumblePeer(bench: bench, controller: 1, address: "C0:B0:00:00:00:02", arguments: ["scan"])
        defer { peer.stop() }
        let advertisement = try await peer.next("advertisement") { $0["address"] as? String == info.randomAddress.description }
        #expect(advertisement["random"] as? Bool == true)
        #expect(advertisement["connectable"] as? Bool == true)
        #expect(advertisement["name"] as? String == LinkLayerTests.name)
        #expect((advertisement["services"] as? [String])?.map { $0.uppercased() } == ["180D", "180F"])
        #expect(advertisement["data"] as? String == Hex.encode(data.encoded()))
        await controller.close()
    }
}

/// The fixed channels swift-att answers itself, exercised by Bumble's host.
@Suite(.serialized) struct FixedChannelTests {
    /// A Bumble peripheral asks swift-att (central) for new parameters over LE
    /// signaling; swift-att accepts them, sends LE Connection Update, and both sides see
    /// the new interval (Bumble reports it in ms: 50 ms = 40 × 1.25 ms).
    @Test func connectionParameterUpdateAndAPeripheralsPairingRequestRefused() async throws {
        let bench = try await BumbleBench(controllers: 2)
        defer { bench.stop() }
        let peer = try BumblePeer(bench: bench, controller: 0, address: "C0:B0:00:00:00:03",
                                  arguments: ["advertise", "--name", "bumble-signaling"])
        defer { peer.stop() }
        let ready = try await peer.next("ready")
        let address = try #require(BluetoothAddress(ready["address"] as? String ?? "", kind: .random))
        let controller = try await Controller.open(try TransportSpecification(parsing: bench.transports[1]))
        _ = try await controller.start()
        let events = controller.events()
        try await controller.createConnection(to: address)
        let connection = try await first("LE Connection Complete", in: events, LinkLayerTests.connectionComplete)
        _ = try await peer.next("connected")

        let updates = controller.events()
        peer.send("update-parameters")
        let interval = try await first("LE Connection Update Complete", in: updates) { event -> UInt16? in
            if case let .leMeta(.connectionUpdateComplete(u)) = event, u.status.isSuccess { return u.connectionInterval }
            return nil
        }
        #expect((24...40).contains(interval))
        let parameters = try await peer.next("parameters")
        #expect(parameters["timeout"] as? Double == 4000)

        // Bumble's `pair()` on a peripheral sends a Pairing Request, which only a central
        // may send (Core 5.4 Vol 3 Part H §3.5.1): swift-att, central here, answers
        // Pairing Failed with Command Not Supported, as Linux does.
        peer.send("pair")
        let failed = try await peer.next("pairing-failed", timeout: .seconds(20))
        #expect(failed["message"] as? String == "ProtocolError(smp/COMMAND_NOT_SUPPORTED [0x7])")

        _ = try await controller.send(Disconnect(connectionHandle: connection.handle))
        _ = try await peer.next("disconnected")
        await controller.close()
    }
}
