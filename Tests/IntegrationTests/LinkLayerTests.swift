import BenchSupport
import SwiftATTAdvertising
import SwiftATTCore
import SwiftATTHCI
import SwiftATTHost
import Testing
import TestSupport
import SwiftATTTransport

/// Two swift-att hosts on Bumble's linked virtual controllers: one advertises with data
/// built by the Advertising target, the other scans, decodes the report, connects and
/// disconnects; both sides see each step.
@Suite(.serialized) struct LinkLayerTests {
    static let name = "swift-att-test"
    static let services = [BluetoothUUID(0x180D), BluetoothUUID(0x180F)]

    static func advertisingData() throws -> AdvertisingData {
        var builder = AdvertisingDataBuilder()
        try builder.append(.flags(.leGeneralDiscoverableLEOnly))
        try builder.append(.serviceUUIDs(ServiceUUIDList(services)))
        _ = try builder.appendLocalName(name)
        return builder.advertisingData
    }

    static func open(_ transport: String, capture: String? = nil) async throws -> (Controller, ControllerInfo) {
        let controller = try await Controller.open(try TransportSpecification(parsing: transport), capturePath: capture)
        return (controller, try await controller.start())
    }

    /// Starts connectable advertising with the commands the controller supports (legacy
    /// here: the bench's controllers list no extended commands, BENCH.md quirk 8).
    static func advertise(_ controller: Controller, data: AdvertisingData) async throws {
        try await controller.startAdvertising(data: data.encoded(), interval: .milliseconds(20))
    }

    /// Every advertising report as (address, data), legacy or extended (quirk 5).
    static func reports(_ event: HCIEvent) -> [(BluetoothAddress, [UInt8])] {
        guard case let .leMeta(meta) = event else { return [] }
        switch meta {
        case let .advertisingReport(r): return r.reports.map { ($0.address, Array($0.data)) }
        case let .extendedAdvertisingReport(r): return r.reports.map { ($0.address, Array($0.data)) }
        default: return []
        }
    }

    static func connectionComplete(_ event: HCIEvent) -> (handle: UInt16, role: LERole, peer: BluetoothAddress)? {
        guard case let .leMeta(meta) = event else { return nil }
        switch meta {
        case let .connectionComplete(c) where c.status.isSuccess: return (c.connectionHandle, c.role, c.peerAddress)
        case let .enhancedConnectionComplete(c) where c.status.isSuccess: return (c.connectionHandle, c.role, c.peerAddress)
        case let .enhancedConnectionCompleteV2(v2) where v2.connection.status.isSuccess:
            return (v2.connection.connectionHandle, v2.connection.role, v2.connection.peerAddress)
        default: return nil
        }
    }

    @Test func startupReadsWhatTheHostNeeds() async throws {
        let bench = try await BumbleBench(controllers: 1)
        defer { bench.stop() }
        let (controller, info) = try await Self.open(bench.transports[0])
        #expect(info.publicAddress.description == "F0:F0:F0:F0:00:01")
        #expect(info.randomAddress.randomSubtype == .static)
        #expect(info.aclBufferLength == 27)
        #expect(info.aclBufferCount > 0)
        #expect(info.version.hciVersion >= 6)
        // Bumble's bitmap omits the extended commands (quirk 8): legacy is chosen.
        #expect(!info.usesExtendedAdvertising)
        await controller.close()
    }

    @Test func advertiseScanConnectDisconnect() async throws {
        let bench = try await BumbleBench(controllers: 2)
        defer { bench.stop() }
        let captures = CaptureFiles(names: ["swift-att-link-layer-peripheral", "swift-att-link-layer-central"])
        defer { captures.remove() }
        let (peripheral, peripheralInfo) = try await Self.open(bench.transports[0], capture: captures.paths[0])
        let (central, centralInfo) = try await Self.open(bench.transports[1], capture: captures.paths[1])
        try await Self.advertise(peripheral, data: try Self.advertisingData())

        // Scan: the report carries the advertiser's random address and our AD intact.
        let scanEvents = central.events()
        try await central.startScanning(active: true)
        let target = peripheralInfo.randomAddress
        let report = try await first("an advertising report from \(target)", in: scanEvents) { event in
            AdvertisingReport.reports(in: event).first { $0.address == target && !$0.isScanResponse }
        }
        try await central.stopScanning()
        #expect(report.isConnectable)
        let data = report.data
        let decoded = try AdvertisingData(parsing: data)
        #expect(decoded.localName?.name == Self.name)
        #expect(decoded.localName?.isComplete == true)
        #expect(decoded.serviceUUIDs == Self.services)
        #expect(decoded.flags == .leGeneralDiscoverableLEOnly)

        // Connect: both sides report the connection with the other's address and role.
        let peripheralEvents = peripheral.events()
        let centralEvents = central.events()
        try await central.createConnection(to: target)
        let onCentral = try await first("LE Connection Complete on the central", in: centralEvents, Self.connectionComplete)
        let onPeripheral = try await first("LE Connection Complete on the peripheral", in: peripheralEvents, Self.connectionComplete)
        #expect(onCentral.role == .central)
        #expect(onPeripheral.role == .peripheral)
        #expect(onCentral.peer == target)
        #expect(onPeripheral.peer == centralInfo.randomAddress)

        // Disconnect: both sides see Disconnection Complete for their handle.
        let peripheralDisconnects = peripheral.events()
        let centralDisconnects = central.events()
        _ = try await central.send(Disconnect(connectionHandle: onCentral.handle))
        let centralReason = try await first("Disconnection Complete on the central", in: centralDisconnects) { event -> HCIStatus? in
            if case let .disconnectionComplete(d) = event, d.connectionHandle == onCentral.handle { return d.reason }
            return nil
        }
        let peripheralReason = try await first("Disconnection Complete on the peripheral", in: peripheralDisconnects) { event -> HCIStatus? in
            if case let .disconnectionComplete(d) = event, d.connectionHandle == onPeripheral.handle { return d.reason }
            return nil
        }
        // The initiator's event carries the reason it sent (quirk 11); so does the peer's.
        #expect(centralReason == .remoteUserTerminatedConnection)
        #expect(peripheralReason == .remoteUserTerminatedConnection)
        await central.close()
        await peripheral.close()

        // The --btsnoop captures of both sides hold the whole exchange and decode fully.
        let centralCapture = try captures.decoded(1)
        #expect(centralCapture.commands.contains("LE Set Scan Enable"))
        #expect(centralCapture.commands.contains("LE Create Connection"))
        #expect(centralCapture.commands.contains("Disconnect"))
        #expect(centralCapture.events.contains("LE Advertising Report"))
        #expect(centralCapture.events.contains("LE Connection Complete"))
        #expect(centralCapture.events.contains("Disconnection Complete"))
        let peripheralCapture = try captures.decoded(0)
        #expect(peripheralCapture.commands.contains("LE Set Advertising Data"))
        #expect(peripheralCapture.commands.contains("LE Set Advertising Enable"))
        #expect(peripheralCapture.events.contains("LE Connection Complete"))
        captures.keepAsFixtures()
    }
}
