import Advertising
import BluetoothCore
import GATT
import Host
import Transport

/// swift-att as the peripheral of the soak: once `centrals` have subscribed to both
/// characteristics, it notifies a sequence number every `interval` and indicates one
/// after every fourth notification, for `duration`, honouring back-pressure (a refused
/// update is retried, never skipped, so every central sees every number from its first).
enum SoakPeripheral {
    static func run(transport: TransportSpecification, centrals: Int, duration: Duration, interval: Duration) async throws -> Int32 {
        let notified = GATTCharacteristic(uuid: SoakProfile.notified, properties: [.notify])
        let indicated = GATTCharacteristic(uuid: SoakProfile.indicated, properties: [.indicate])
        let database = try GATTDatabase(
            services: [GATTService(uuid: SoakProfile.service, characteristics: [notified, indicated])],
            genericAccess: GATTGenericAccess(deviceName: "swift-att soak"))
        let peripheral = try await Peripheral.start(transport: transport, database: database, readvertising: .upTo(connections: centrals))
        let events = peripheral.events()
        var advertisement = AdvertisingDataBuilder()
        try advertisement.append(.flags(.leGeneralDiscoverableLEOnly))
        try advertisement.append(.serviceUUIDs(ServiceUUIDList([SoakProfile.service])))
        _ = try advertisement.appendLocalName("swift-att soak")
        try await peripheral.startAdvertising(data: advertisement.advertisingData.encoded(), interval: .milliseconds(20))
        emit("{\"event\":\"ready\",\"address\":\"\(peripheral.info.randomAddress)\"}")

        // Wait for every central to subscribe to both characteristics.
        var subscriptions = 0
        for await event in events {
            if case let .subscriptionChanged(change) = event, change.cause == .written, !change.configuration.isEmpty {
                subscriptions += 1
                if subscriptions == 2 * centrals { break }
            }
        }
        let start = (rss: ProcessFigures.residentKiB(), fds: ProcessFigures.openDescriptors())
        emit("{\"event\":\"streaming\",\"rssKiB\":\(start.rss),\"fds\":\(start.fds)}")
        var notifiedCount: UInt32 = 0
        var indicatedCount: UInt32 = 0
        var refusals = 0
        let end = ContinuousClock.now + duration
        var middle: (rss: Int, fds: Int)?
        while ContinuousClock.now < end {
            while !(await peripheral.updateValue(SoakProfile.value(notifiedCount + 1), for: notified)) {
                refusals += 1
                try await Task.sleep(for: .milliseconds(1))
            }
            notifiedCount += 1
            if notifiedCount % 4 == 0 {
                while !(await peripheral.updateValue(SoakProfile.value(indicatedCount + 1), for: indicated)) {
                    refusals += 1
                    try await Task.sleep(for: .milliseconds(1))
                }
                indicatedCount += 1
            }
            if middle == nil, ContinuousClock.now > end - duration / 2 {
                middle = (ProcessFigures.residentKiB(), ProcessFigures.openDescriptors())
            }
            if interval > .zero { try await Task.sleep(for: interval) }
        }
        // Let the last values drain before the figures and the goodbye.
        try await Task.sleep(for: .seconds(2))
        let finish = (rss: ProcessFigures.residentKiB(), fds: ProcessFigures.openDescriptors())
        emit("{\"event\":\"done\",\"notified\":\(notifiedCount),\"indicated\":\(indicatedCount),\"refusals\":\(refusals),"
              + "\"rssStartKiB\":\(start.rss),\"rssMiddleKiB\":\(middle?.rss ?? -1),\"rssEndKiB\":\(finish.rss),"
              + "\"fdsStart\":\(start.fds),\"fdsEnd\":\(finish.fds)}")
        await peripheral.close()
        return 0
    }
}
