import SwiftATTPDU
import SwiftATTAdvertising
import BenchSupport
import SwiftATTCore
import SwiftATTGATT
import SwiftATTHCI
import SwiftATTHost
import Synchronization
import Testing
import TestSupport
import SwiftATTTransport

/// swift-att as a GATT peripheral, with Bumble's host as the central: discovery, reads,
/// writes and notifications cross two independent stacks.
@Suite(.serialized) struct PeripheralTests {
    /// A heart-rate monitor (seed 002's profile): Measurement (notify), Body Sensor
    /// Location (read: 1 = chest), Control Point (write: 0x01 resets energy expended).
    final class Writes: Sendable {
        let values = Mutex<[[UInt8]]>([])
    }

    static func heartRateDatabase(controlPointWrites: Writes) throws -> (GATTDatabase, GATTCharacteristic) {
        let measurement = GATTCharacteristic(uuid: BluetoothUUID(0x2A37), properties: [.notify])
        let location = GATTCharacteristic(uuid: BluetoothUUID(0x2A38), properties: [.read], value: .fixed([0x01]))
        let controlPoint = GATTCharacteristic(
            uuid: BluetoothUUID(0x2A39), properties: [.write],
            value: .dynamic(length: .fixed(1), write: { context in
                controlPointWrites.values.withLock { $0.append(Array(context.value)) }
                return context.value.first == 0x01 ? nil : ATTErrorCode(0x80)
            }))
        let service = GATTService(uuid: BluetoothUUID(0x180D), characteristics: [measurement, location, controlPoint])
        let database = try GATTDatabase(services: [service], genericAccess: GATTGenericAccess(deviceName: "swift-att HR", appearance: 0x0341))
        return (database, measurement)
    }

    @Test func bumbleCentralDiscoversReadsWritesAndReceivesNotifications() async throws {
        let bench = try await BumbleBench(controllers: 2)
        defer { bench.stop() }
        let writes = Writes()
        let (database, measurement) = try Self.heartRateDatabase(controlPointWrites: writes)
        let peripheral = try await Peripheral.start(transport: try TransportSpecification(parsing: bench.transports[0]), database: database)
        var advertisement = AdvertisingDataBuilder()
        try advertisement.append(.flags(.leGeneralDiscoverableLEOnly))
        try advertisement.append(.serviceUUIDs(ServiceUUIDList([BluetoothUUID(0x180D)])))
        _ = try advertisement.appendLocalName("swift-att HR")
        let events = peripheral.events()
        try await peripheral.startAdvertising(data: advertisement.advertisingData.encoded(), interval: .milliseconds(20))

        let central = try BumblePeer(bench: bench, controller: 1, address: "C0:B0:00:00:00:10", arguments: [
            "central", "--target", peripheral.info.randomAddress.description, "--mtu", "247",
            "--read", "2A38", "--write", "2A39=01", "--subscribe", "2A37",
        ])
        defer { central.stop() }
        _ = try await central.next("connected")
        #expect(try await central.next("mtu")["mtu"] as? Int == 247)
        let hr = try await central.next("service") { $0["uuid"] as? String == "180D" }
        #expect(hr["start"] as? Int != nil)
        let measurementCharacteristic = try await central.next("characteristic") { $0["uuid"] as? String == "2A37" }
        #expect(measurementCharacteristic["properties"] as? Int == 0x10)
        let descriptors = measurementCharacteristic["descriptors"] as? [[Any]] ?? []
        #expect(descriptors.contains { ($0.first as? String) == "2902" }, "no CCCD under 2A37: \(descriptors)")
        #expect(try await central.next("read")["value"] as? String == "01")
        _ = try await central.next("written")
        #expect(writes.values.withLock { $0 } == [[0x01]])
        _ = try await central.next("subscribed")

        // Wait for the subscription, then send three measurements (uint8 BPM format).
        let subscribed = try await first("the central's subscription to notifications", in: events) { event -> Bool? in
            if case let .subscriptionChanged(change) = event, change.configuration.contains(.notification) { return true }
            return nil
        }
        #expect(subscribed)
        for bpm: UInt8 in [72, 75, 80] {
            #expect(peripheral.updateValue([0x00, bpm], for: measurement))
        }
        for bpm: UInt8 in [72, 75, 80] {
            let notification = try await central.next("notification")
            #expect(notification["value"] as? String == Hex.encode([0x00, bpm]))
        }
        central.send("disconnect")
        _ = try await central.next("disconnected")
        await peripheral.close()
    }
}
