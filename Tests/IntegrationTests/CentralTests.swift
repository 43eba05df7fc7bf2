import SwiftATTAdvertising
import BenchSupport
import SwiftATTCore
import SwiftATTGATT
import SwiftATTHCI
import SwiftATTHost
import Testing
import TestSupport
import SwiftATTTransport

/// swift-att's central role against swift-att's peripheral role on Bumble's radio.
@Suite(.serialized) struct CentralTests {
    static func startPeripheral(_ bench: BumbleBench) async throws -> Peripheral {
        let (database, _) = try PeripheralTests.heartRateDatabase(controlPointWrites: PeripheralTests.Writes())
        let peripheral = try await Peripheral.start(transport: try TransportSpecification(parsing: bench.transports[0]), database: database)
        var advertisement = AdvertisingDataBuilder()
        try advertisement.append(.flags(.leGeneralDiscoverableLEOnly))
        try advertisement.append(.serviceUUIDs(ServiceUUIDList([BluetoothUUID(0x180D)])))
        _ = try advertisement.appendLocalName("swift-att HR")
        // Bumble's controller answers a scan request with the advertising data again
        // (BENCH.md quirk 5), so a scan response cannot carry anything distinct here;
        // merging is covered by the Advertising tests.
        try await peripheral.startAdvertising(data: advertisement.advertisingData.encoded(), interval: .milliseconds(20))
        return peripheral
    }

    @Test func scanFiltersAndConnect() async throws {
        let bench = try await BumbleBench(controllers: 2)
        defer { bench.stop() }
        let peripheral = try await Self.startPeripheral(bench)
        let central = try await Central.start(transport: try TransportSpecification(parsing: bench.transports[1]))

        // By service and by name (case-insensitive substring).
        let byService = try #require(try await central.firstDevice(ScanFilter(services: [BluetoothUUID(0x180D)]), within: .seconds(5)))
        #expect(byService.address == peripheral.info.randomAddress)
        let byName = try #require(try await central.firstDevice(ScanFilter(nameContains: "att hr"), within: .seconds(5)))
        #expect(byName.address == peripheral.info.randomAddress)
        #expect(byName.data.serviceUUIDs == [BluetoothUUID(0x180D)])
        #expect(byName.data.localName?.name == "swift-att HR")
        // A 128-bit spelling of the same service matches too.
        let wide = try await central.firstDevice(ScanFilter(services: [BluetoothUUID(0x180D).widened]), within: .seconds(5))
        #expect(wide?.address == peripheral.info.randomAddress)
        // Nothing advertises 0x1234, and the RSSI floor (Bumble reports −50) excludes all.
        #expect(try await central.firstDevice(ScanFilter(services: [BluetoothUUID(0x1234)]), within: .milliseconds(500)) == nil)
        #expect(try await central.firstDevice(ScanFilter(minimumRSSI: -40), within: .milliseconds(500)) == nil)

        let events = peripheral.events()
        let link = try await central.connect(byService.address)
        let connected = try await first("the connection at the peripheral", in: events) { event -> BluetoothAddress? in
            if case let .connected(_, address) = event { return address }
            return nil
        }
        #expect(connected == central.info.randomAddress)
        try await link.disconnect()
        let reason = try await first("the disconnection at the peripheral", in: events) { event -> HCIStatus? in
            if case let .disconnected(_, reason) = event { return reason }
            return nil
        }
        #expect(reason == .remoteUserTerminatedConnection)
        await central.close()
        await peripheral.close()
    }

    @Test func connectingToNobodyTimesOut() async throws {
        let bench = try await BumbleBench(controllers: 1)
        defer { bench.stop() }
        let central = try await Central.start(transport: try TransportSpecification(parsing: bench.transports[0]))
        do {
            _ = try await central.connect(BluetoothAddress(0xC1_23_45_67_89_AB, kind: .random), timeout: .milliseconds(500))
            Issue.record("connected to an address nobody advertises")
        } catch {
            #expect(error == .timedOut(.milliseconds(500)))
        }
        await central.close()
    }
}
