import SwiftATT
import SwiftATTProfiles
import Synchronization

/// A heart-rate monitor: the Heart Rate service (0x180D) with its measurement (notified)
/// and the sensor's body location (read), advertised by service and name — the
/// peripheral API used as README's quick tour ("A peripheral") shows.
struct HeartRateMonitor: Sendable {
    static let heartRateService = BluetoothUUID(0x180D)
    static let measurementUUID = BluetoothUUID(0x2A37)
    static let bodySensorLocationUUID = BluetoothUUID(0x2A38)
    static let name = "swift-att HR logger"

    let peripheral: Peripheral
    let measurement: GATTCharacteristic

    /// Starts serving and advertising on the controller `transport` names.
    static func start(transport: TransportSpecification) async throws -> HeartRateMonitor {
        let measurement = GATTCharacteristic(uuid: measurementUUID, properties: [.notify])
        // Body Sensor Location 0x01: chest.
        let location = GATTCharacteristic(uuid: bodySensorLocationUUID, properties: [.read], value: .fixed([0x01]))
        let service = GATTService(uuid: heartRateService, characteristics: [measurement, location])
        let database = try GATTDatabase(services: [service], genericAccess: GATTGenericAccess(deviceName: name))

        let peripheral = try await Peripheral.start(transport: transport, database: database)
        var advertisement = AdvertisingDataBuilder()
        try advertisement.append(.flags(.leGeneralDiscoverableLEOnly))
        try advertisement.append(.serviceUUIDs(ServiceUUIDList([heartRateService])))
        _ = try advertisement.appendLocalName(name)
        try await peripheral.startAdvertising(data: advertisement.advertisingData.encoded())
        return HeartRateMonitor(peripheral: peripheral, measurement: measurement)
    }

    /// Notifies a measurement every `interval` while a central is subscribed, until the
    /// calling task is cancelled. The rate climbs from 60 bpm to 99 and starts again.
    func serve(every interval: Duration) async {
        let subscribers = Mutex(Set<UInt16>())
        let events = Task {
            for await event in peripheral.events() {
                switch event {
                case let .subscriptionChanged(change) where change.characteristic === measurement:
                    subscribers.withLock {
                        if change.configuration.contains(.notification) {
                            _ = $0.insert(change.connection.rawValue)
                        } else {
                            $0.remove(change.connection.rawValue)
                        }
                    }
                case let .disconnected(handle, _):
                    _ = subscribers.withLock { $0.remove(handle) }
                default:
                    break
                }
            }
        }
        var beat = 0
        while !Task.isCancelled {
            if !subscribers.withLock({ $0.isEmpty }) {
                let reading = HeartRateMeasurement(beatsPerMinute: UInt16(60 + beat % 40), sensorContact: .detected)
                // False while a subscriber's queue is full: this reading is skipped.
                if peripheral.updateValue(reading.encoded(), for: measurement) { beat += 1 }
            }
            try? await Task.sleep(for: interval)
        }
        events.cancel()
    }

    func close() async {
        await peripheral.close()
    }
}
