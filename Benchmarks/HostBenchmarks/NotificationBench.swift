import Advertising
import BluetoothCore
import GATT
import Host
import Synchronization
import Transport

/// One swift-att peripheral notifying a characteristic to N swift-att centrals, each a
/// separate host with its own controller and event loop: the work measured is the whole
/// path, `Peripheral.updateValue` → GATT server → ATT → L2CAP → HCI ACL framing and
/// flow control → controller → HCI → L2CAP recombination → ATT bearer → GATT client →
/// `Peer.notifications(of:)` stream → the application's task.
final class NotificationBench: Sendable {
    static let service = BluetoothUUID(0xB0B0)
    static let streamUUID = BluetoothUUID(0xB0B1)

    let peripheral: Peripheral
    let centrals: [Central]
    let stream: GATTCharacteristic
    let subscriptions: [GATTNotificationStream]
    let valueLength: Int
    /// Every host and the benchmark's own tasks run on this one thread; nil: each host
    /// has its own loop thread and the tasks run on Swift's global executor.
    let eventLoop: HostEventLoop?

    private init(peripheral: Peripheral, centrals: [Central], stream: GATTCharacteristic,
                 subscriptions: [GATTNotificationStream], valueLength: Int, eventLoop: HostEventLoop?) {
        self.peripheral = peripheral
        self.centrals = centrals
        self.stream = stream
        self.subscriptions = subscriptions
        self.valueLength = valueLength
        self.eventLoop = eventLoop
    }

    enum SetupError: Error, CustomStringConvertible {
        case notFound(String)
        var description: String {
            switch self { case let .notFound(what): return "benchmark setup: \(what) not found" }
        }
    }

    /// Starts the peripheral on `peripheralTransport` and one central per entry of
    /// `centralTransports`; each central scans, connects (ATT_MTU 517), discovers and
    /// subscribes. With `eventLoop`, every host runs on it.
    static func start(peripheral peripheralTransport: TransportSpecification, centrals centralTransports: [TransportSpecification],
                      valueLength: Int, on eventLoop: HostEventLoop? = nil) async throws -> NotificationBench {
        let stream = GATTCharacteristic(uuid: streamUUID, properties: [.notify])
        let database = try GATTDatabase(services: [GATTService(uuid: service, characteristics: [stream])],
                                        genericAccess: GATTGenericAccess(deviceName: "bench", appearance: 0))
        let peripheral = try await Peripheral.start(transport: peripheralTransport, database: database,
                                                    readvertising: .upTo(connections: centralTransports.count),
                                                    on: eventLoop)
        var advertisement = AdvertisingDataBuilder()
        try advertisement.append(.flags(.leGeneralDiscoverableLEOnly))
        try advertisement.append(.serviceUUIDs(ServiceUUIDList([service])))
        try await peripheral.startAdvertising(data: advertisement.advertisingData.encoded(), interval: .milliseconds(20))

        var centrals: [Central] = []
        var subscriptions: [GATTNotificationStream] = []
        for transport in centralTransports {
            let central = try await Central.start(transport: transport, on: eventLoop)
            centrals.append(central)
            var found: DiscoveredDevice?
            for try await device in central.scan(services: [service]) {
                found = device
                break
            }
            guard let device = found else { throw SetupError.notFound("advertising peripheral") }
            let peer = try await central.connect(device.address)
            guard let characteristic = try await peer.discoverDatabase().characteristics(uuid: streamUUID).first else {
                throw SetupError.notFound("stream characteristic")
            }
            subscriptions.append(try await peer.notifications(of: characteristic))
        }
        return NotificationBench(peripheral: peripheral, centrals: centrals, stream: stream,
                                 subscriptions: subscriptions, valueLength: valueLength, eventLoop: eventLoop)
    }

    /// Counts what the centrals received, and wakes the sender at a target.
    final class Progress: Sendable {
        let received = Atomic<Int>(0)
        private let waiter = Mutex<(target: Int, continuation: CheckedContinuation<Void, Never>)?>(nil)

        func add() {
            let now = received.add(1, ordering: .relaxed).newValue
            let ready = waiter.withLock { w -> CheckedContinuation<Void, Never>? in
                guard let current = w, now >= current.target else { return nil }
                w = nil
                return current.continuation
            }
            ready?.resume()
        }

        func wait(for target: Int) async {
            await withCheckedContinuation { continuation in
                let now = waiter.withLock { w -> Bool in
                    if received.load(ordering: .relaxed) >= target { return true }
                    w = (target, continuation)
                    return false
                }
                if now { continuation.resume() }
            }
        }
    }

    /// Notifies `warmup` values to every central and waits for them, then measures
    /// `count` more: wall and process CPU time from the first `updateValue` to the last
    /// value received. One run per bench (each subscription stream is consumed once).
    func run(warmup: Int, count: Int) async -> Sample {
        await withTaskExecutorPreference(eventLoop) { await measure(warmup: warmup, count: count) }
    }

    private func measure(warmup: Int, count: Int) async -> Sample {
        let progress = Progress()
        let perCentral = warmup + count
        let receivers = subscriptions.map { subscription in
            Task(executorPreference: eventLoop) {
                var n = 0
                do {
                    for try await _ in subscription {
                        progress.add()
                        n += 1
                        if n == perCentral { break }
                    }
                } catch {}
            }
        }
        var events = peripheral.events().makeAsyncIterator()
        let value = (0..<valueLength).map { UInt8(truncatingIfNeeded: $0) }
        func send(_ n: Int) async {
            for _ in 0..<n {
                // CoreBluetooth's pattern: false means "queues full", wait for readyToUpdate.
                while !peripheral.updateValue(value, for: stream) {
                    while let event = await events.next() {
                        if case .readyToUpdate = event { break }
                    }
                }
            }
        }
        await send(warmup)
        await progress.wait(for: warmup * subscriptions.count)
        let clock = ContinuousClock()
        let start = clock.now
        let cpuStart = CPUClock.seconds()
        await send(count)
        await progress.wait(for: perCentral * subscriptions.count)
        let wall = (clock.now - start).seconds
        let cpu = CPUClock.seconds() - cpuStart
        for receiver in receivers { await receiver.value }
        return Sample(delivered: count * subscriptions.count, wallSeconds: wall, cpuSeconds: cpu)
    }

    func stop() async {
        for central in centrals { await central.close() }
        await peripheral.close()
    }
}
