import SwiftATTAdvertising
import SwiftATTCore
import SwiftATTGATT
import SwiftATTHost
import Synchronization
import SwiftATTTransport

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
    /// The loop the peripheral and the sending task run on, and each central's, where
    /// the task draining its stream runs (nil: the host's own thread; the task on
    /// Swift's global executor).
    let senderLoop: HostEventLoop?
    let receiverLoops: [HostEventLoop?]
    let layout: LoopLayout

    private init(peripheral: Peripheral, centrals: [Central], stream: GATTCharacteristic,
                 subscriptions: [GATTNotificationStream], valueLength: Int, layout: LoopLayout,
                 loops: (sender: HostEventLoop?, receivers: [HostEventLoop?])) {
        self.peripheral = peripheral
        self.centrals = centrals
        self.stream = stream
        self.subscriptions = subscriptions
        self.valueLength = valueLength
        self.layout = layout
        self.senderLoop = loops.sender
        self.receiverLoops = loops.receivers
    }

    enum SetupError: Error, CustomStringConvertible {
        case notFound(String)
        var description: String {
            switch self { case let .notFound(what): return "benchmark setup: \(what) not found" }
        }
    }

    /// Starts the peripheral on `peripheralTransport` and one central per entry of
    /// `centralTransports`; each central scans, connects (ATT_MTU 517), discovers and
    /// subscribes. `layout` says which threads the hosts and tasks run on.
    static func start(peripheral peripheralTransport: TransportSpecification, centrals centralTransports: [TransportSpecification],
                      valueLength: Int, layout: LoopLayout = .default) async throws -> NotificationBench {
        let loops = try layout.loops(receivers: centralTransports.count)
        let stream = GATTCharacteristic(uuid: streamUUID, properties: [.notify])
        let database = try GATTDatabase(services: [GATTService(uuid: service, characteristics: [stream])],
                                        genericAccess: GATTGenericAccess(deviceName: "bench", appearance: 0))
        let peripheral = try await Peripheral.start(transport: peripheralTransport, database: database,
                                                    readvertising: .upTo(connections: centralTransports.count),
                                                    on: loops.sender)
        var advertisement = AdvertisingDataBuilder()
        try advertisement.append(.flags(.leGeneralDiscoverableLEOnly))
        try advertisement.append(.serviceUUIDs(ServiceUUIDList([service])))
        try await peripheral.startAdvertising(data: advertisement.advertisingData.encoded(), interval: .milliseconds(20))

        var centrals: [Central] = []
        var subscriptions: [GATTNotificationStream] = []
        for (transport, loop) in zip(centralTransports, loops.receivers) {
            let central = try await Central.start(transport: transport, on: loop)
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
                                 subscriptions: subscriptions, valueLength: valueLength, layout: layout, loops: loops)
    }

    /// Counts what the centrals received, and wakes the sender at a target. Counting
    /// is one atomic add: the lock is taken only once the target is reached.
    final class Progress: Sendable {
        // Sequentially consistent: a count added while `wait` sets its target is seen
        // by one side or the other (either `add` sees the target, or `wait`'s second
        // look sees the count).
        let received = Atomic<Int>(0)
        private let target = Atomic<Int>(.max)
        private let waiter = Mutex<CheckedContinuation<Void, Never>?>(nil)

        func add() {
            let now = received.add(1, ordering: .sequentiallyConsistent).newValue
            if now >= target.load(ordering: .sequentiallyConsistent) { wakeIfReached() }
        }

        private func wakeIfReached() {
            let ready = waiter.withLock { w -> CheckedContinuation<Void, Never>? in
                guard w != nil, received.load(ordering: .sequentiallyConsistent) >= target.load(ordering: .sequentiallyConsistent) else { return nil }
                target.store(.max, ordering: .sequentiallyConsistent)
                defer { w = nil }
                return w
            }
            ready?.resume()
        }

        func wait(for count: Int) async {
            await withCheckedContinuation { continuation in
                waiter.withLock { w in
                    w = continuation
                    target.store(count, ordering: .sequentiallyConsistent)
                }
                // A value counted before the target was set saw none: look again.
                wakeIfReached()
            }
        }
    }

    /// Notifies `warmup` values to every central and waits for them, then measures
    /// `count` more: wall and process CPU time from the first `updateValue` to the last
    /// value received (and, with a loop per host, each host's thread's). One run per
    /// bench (each subscription stream is consumed once).
    func run(warmup: Int, count: Int) async -> Sample {
        await withTaskExecutorPreference(senderLoop) { await measure(warmup: warmup, count: count) }
    }

    /// The CPU time of the sending host's loop thread and of the receiving hosts' loop
    /// threads (each counted once) so far, read by a task on each; nil unless the
    /// layout keeps the two sides on threads of their own.
    private func hostThreadSeconds() async -> (sender: Double, receivers: Double)? {
        guard layout.measuresEachSide, let senderLoop else { return nil }
        let sender = await Task(executorPreference: senderLoop) { CPUClock.threadSeconds() }.value
        var receivers = 0.0
        var seen = Set<ObjectIdentifier>()
        for case let loop? in receiverLoops where seen.insert(ObjectIdentifier(loop)).inserted {
            receivers += await Task(executorPreference: loop) { CPUClock.threadSeconds() }.value
        }
        return (sender, receivers)
    }

    private func measure(warmup: Int, count: Int) async -> Sample {
        let progress = Progress()
        let perCentral = warmup + count
        let receivers = zip(subscriptions, receiverLoops).map { subscription, loop in
            Task(executorPreference: loop) {
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
        let hostsBefore = await hostThreadSeconds()
        let clock = ContinuousClock()
        let start = clock.now
        let cpuStart = CPUClock.seconds()
        await send(count)
        await progress.wait(for: perCentral * subscriptions.count)
        let wall = (clock.now - start).seconds
        let cpu = CPUClock.seconds() - cpuStart
        let hostsAfter = await hostThreadSeconds()
        for receiver in receivers { await receiver.value }
        var sample = Sample(delivered: count * subscriptions.count, wallSeconds: wall, cpuSeconds: cpu)
        if let hostsBefore, let hostsAfter {
            sample.hostCPUSeconds = (hostsAfter.sender - hostsBefore.sender, hostsAfter.receivers - hostsBefore.receivers)
        }
        return sample
    }

    func stop() async {
        for central in centrals { await central.close() }
        await peripheral.close()
    }
}
