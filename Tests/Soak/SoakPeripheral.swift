import SwiftATTAdvertising
import SwiftATTCore
import SwiftATTGATT
import SwiftATTHost

/// swift-att as the peripheral of the soak. Once `links` centrals have subscribed to both
/// characteristics, it notifies a sequence number every `interval` and indicates one
/// after every fourth notification, to every central at once, for `duration`. A value
/// the transmit queues refuse is sent again after `.readyToUpdate`, never skipped, so
/// every central must see every number from 1. At the end it waits for every indication
/// to be confirmed, reports what it sent, and ends the links, which tells the centrals
/// the stream is complete.
enum SoakPeripheral {
    static func run(_ options: SoakOptions) async throws -> Int32 {
        let centrals = options.links
        let notified = GATTCharacteristic(uuid: SoakProfile.notified, properties: [.notify])
        let indicated = GATTCharacteristic(uuid: SoakProfile.indicated, properties: [.indicate])
        let database = try GATTDatabase(
            services: [GATTService(uuid: SoakProfile.service, characteristics: [notified, indicated])],
            genericAccess: GATTGenericAccess(deviceName: "swift-att soak"))
        let peripheral = try await Peripheral.start(
            transport: options.transport, database: database, capturePath: options.capturePath,
            readvertising: .upTo(connections: centrals))
        let tally = PeripheralTally(events: peripheral.events())
        var advertisement = AdvertisingDataBuilder()
        try advertisement.append(.flags(.leGeneralDiscoverableLEOnly))
        try advertisement.append(.serviceUUIDs(ServiceUUIDList([SoakProfile.service])))
        _ = try advertisement.appendLocalName("swift-att soak")
        try await peripheral.startAdvertising(data: advertisement.advertisingData.encoded(), interval: .milliseconds(20))
        emit("{\"event\":\"ready\",\"address\":\"\(peripheral.info.randomAddress)\"}")

        // Centrals connect one after another; allow each its discovery.
        let setUp = Duration.seconds(30 + 10 * centrals)
        guard await tally.wait(for: setUp, until: { $0.subscriptions >= 2 * centrals }) else {
            let counts = tally.counts
            emit("{\"event\":\"error\",\"message\":\(quoted("after \(setUp): \(counts.connections) of \(centrals) centrals connected, \(counts.subscriptions) of \(2 * centrals) subscriptions"))}")
            await peripheral.close()
            return 1
        }
        let watch = ResourceWatch.start(warmUp: options.warmUp)
        emit("{\"event\":\"streaming\",\"links\":\(centrals)}")

        var sent = (notified: UInt32(0), indicated: UInt32(0))
        var stalls = 0
        var failures: [String] = []
        /// Sends `value`, waiting for room as often as the queues refuse it. False when
        /// no room came within the ATT transaction timeout, or a link went down.
        func send(_ value: [UInt8], for characteristic: GATTCharacteristic) async -> Bool {
            while true {
                // Read before trying, so a `.readyToUpdate` between the refusal and the
                // wait is not missed.
                let ready = tally.counts.readyToUpdate
                if peripheral.updateValue(value, for: characteristic) { return true }
                stalls += 1
                let room = await tally.wait(for: .seconds(35)) { $0.readyToUpdate > ready || $0.disconnections > 0 }
                if !room || tally.counts.disconnections > 0 { return false }
            }
        }
        let end = ContinuousClock.now + options.duration
        while ContinuousClock.now < end {
            guard tally.counts.disconnections == 0, await send(SoakProfile.value(sent.notified + 1), for: notified) else { break }
            sent.notified += 1
            if sent.notified % 4 == 0 {
                guard await send(SoakProfile.value(sent.indicated + 1), for: indicated) else { break }
                sent.indicated += 1
            }
            // --interval paces the sender: the rate is the load under test, not a wait.
            if options.interval > .zero { try await Task.sleep(for: options.interval) }
        }
        let owed = Int(sent.indicated) * centrals
        if !(await tally.wait(for: .seconds(35), until: { $0.confirmations >= owed || $0.disconnections > 0 })) {
            failures.append("\(owed - tally.counts.confirmations) indications unconfirmed after 35 s")
        }
        let figures = watch.finish()
        let counts = tally.counts
        if counts.disconnections > 0 {
            failures.append("\(counts.disconnections) of \(centrals) links went down during the soak")
        } else if ContinuousClock.now < end {
            failures.append("sending stopped early: no room to send within 35 s")
        }
        failures += figures.failures(rssGrowthLimitKiB: options.rssGrowthLimitKiB, heapGrowthLimitKiB: options.heapGrowthLimitKiB)
        emit("{\"event\":\"done\",\"links\":\(centrals),\"notified\":\(sent.notified),\"indicated\":\(sent.indicated),"
             + "\"confirmed\":\(counts.confirmations),\"stalls\":\(stalls),\(figures.json),\"failures\":\(quoted(failures))}")
        // Ending the links tells each central that the last value has been sent.
        await peripheral.close()
        return failures.isEmpty ? 0 : 1
    }
}
