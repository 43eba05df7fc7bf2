import SwiftATTCore
import SwiftATTGATT
import SwiftATTHCI
import Synchronization
import SwiftATTTransport

/// The peripheral role: serve a GATT database and advertise, the way CoreBluetooth's
/// `CBPeripheralManager` does.
///
///     let peripheral = try await Peripheral.start(transport: spec, database: database)
///     try await peripheral.startAdvertising(data: advertisement)
///     for await event in peripheral.events() { … }
///     _ = peripheral.updateValue(bpm, for: heartRateMeasurement)
///
/// Advertising resumes by itself after a connection stopped it (`Readvertising`), the
/// way CoreBluetooth keeps a peripheral manager advertising until told to stop.
///
/// `Sendable`: every call is carried out on the host's event loop.
public final class Peripheral: Sendable {
    /// The conversation with the controller this peripheral runs on.
    public let controller: Controller
    /// The database served now (`replaceDatabase` changes it).
    public var database: GATTDatabase { served.withLock { $0 } }
    private let served: Mutex<GATTDatabase>
    /// What the controller's start-up sequence learned.
    public let info: ControllerInfo
    /// The loop whose thread runs this host (`Controller.eventLoop`).
    public var eventLoop: HostEventLoop { controller.eventLoop }
    /// When advertising starts again by itself.
    public var readvertising: Readvertising { advertiser.policy }

    private let advertiser: PeripheralAdvertiser
    /// Listeners of `events()`, for the events the peripheral itself announces
    /// (advertising resumed or failed); the loop feeds them everything else.
    private let listeners = PeripheralListeners()
    /// Admits `updateValue` calls without a round trip through the loop per value.
    private let updates = UpdateGate(capacity: Peripheral.updateQueueCapacity)
    /// `controller.loop`, held here so that a value on its way to the loop does not
    /// retain and release the controller to reach it.
    private let loop: HostLoop

    private init(controller: Controller, database: GATTDatabase, info: ControllerInfo, readvertising: Readvertising) {
        self.controller = controller
        self.loop = controller.loop
        self.served = Mutex(database)
        self.info = info
        let listeners = self.listeners
        advertiser = PeripheralAdvertiser(controller: controller, policy: readvertising) { event in
            listeners.yield(event)
        }
    }

    /// Opens the controller, runs its start-up sequence and starts serving `database`.
    /// `readvertising` says whether advertising resumes by itself after connections. The
    /// host runs on `eventLoop`, by default the process's `HostEventLoop.shared`. With
    /// `storage`, the host advertises under the identity it keeps for this adapter and
    /// keeps its bonds there (`Controller.start(storage:)`), with what the GATT server
    /// keeps for each bonded central: the server starts with the subscriptions, change-
    /// awareness and Service Changed owed an earlier run left (reconciled with `database`
    /// when it changed since). Without, under a fresh static random address with bonds in
    /// memory.
    public static func start(
        transport: TransportSpecification, database: GATTDatabase,
        configuration: GATTServer.Configuration = .init(), capturePath: String? = nil,
        readvertising: Readvertising = .default, storage: (any SecurityStorage)? = nil,
        on eventLoop: HostEventLoop? = nil
    ) async throws(ControllerError) -> Peripheral {
        let controller = try await Controller.open(transport, capturePath: capturePath, on: eventLoop)
        let info: ControllerInfo
        do {
            info = try await controller.start(.init(storage))
        } catch {
            await controller.close()
            throw error
        }
        let peripheral = Peripheral(controller: controller, database: database, info: info, readvertising: readvertising)
        let updates = peripheral.updates
        // A database announcing Enhanced ATT is served on bearers to PSM 0x0027 too.
        let acceptsEnhancedATT = database.serverFeatures.contains(.enhancedATT)
        await controller.perform { stack in
            stack.install(GATTServer(database: database, configuration: configuration), updates: updates)
            if acceptsEnhancedATT { _ = stack.attributes.acceptEnhancedBearers(parameters: .enhancedATT, controller: controller) }
        }
        peripheral.watchConnections()
        return peripheral
    }

    /// Opens the controller named by a transport string ("hci0", "serial:/dev/ttyUSB0",
    /// "tcp:127.0.0.1:9000"), runs its start-up sequence and starts serving `database`.
    public static func start(
        transport: String, database: GATTDatabase,
        configuration: GATTServer.Configuration = .init(), capturePath: String? = nil,
        readvertising: Readvertising = .default, storage: (any SecurityStorage)? = nil,
        on eventLoop: HostEventLoop? = nil
    ) async throws(ControllerError) -> Peripheral {
        try await start(transport: try .hostParsing(transport), database: database, configuration: configuration,
                        capturePath: capturePath, readvertising: readvertising, storage: storage, on: eventLoop)
    }

    /// Connectable advertising with `data` (and an optional scan response), remembered
    /// so that it can resume after connections. Called while advertising, it replaces
    /// the advertisement.
    public func startAdvertising(data: [UInt8], scanResponse: [UInt8] = [], interval: Duration = .milliseconds(100)) async throws(ControllerError) {
        try await advertiser.start(.init(data: data, scanResponse: scanResponse, interval: interval))
    }

    /// Stops advertising; it does not resume until `startAdvertising`.
    public func stopAdvertising() async throws(ControllerError) {
        try await advertiser.stop()
    }

    /// Whether the controller is advertising, as far as the host knows.
    public var isAdvertising: Bool { advertiser.isAdvertising }

    /// Everything that happens from now on: connections, subscriptions, MTU changes,
    /// confirmations, `.readyToUpdate` after an `updateValue` that returned false, and
    /// advertising resuming by itself.
    public func events() -> AsyncStream<PeripheralEvent> {
        let (stream, continuation) = AsyncStream<PeripheralEvent>.makeStream(bufferingPolicy: .bufferingNewest(4096))
        let listeners = self.listeners
        let local = listeners.add(continuation)
        controller.loop.feed(continuation, from: \.attributes.peripheralListeners, onEnd: { listeners.remove(local) })
        return stream
    }

    /// Feeds connections and disconnections to the advertiser, which restarts
    /// advertising as `readvertising` says.
    private func watchConnections() {
        let advertiser = self.advertiser
        controller.loop.submit({ stack in
            stack.attributes.peripheralObserver = { event in
                switch event {
                case let .connected(handle, _): advertiser.connected(handle)
                case let .disconnected(handle, _): advertiser.disconnected(handle)
                case let .controllerRecovery(recovery): advertiser.recovery(recovery)
                default: break
                }
            }
        }, refuse: { _ in })
    }

    /// How many `updateValue` values may wait for the loop thread at once.
    ///
    /// Half the bearer's indication queue, by construction: a link counts as crowded when
    /// its queued indications plus this many could fill that queue, so at or above the
    /// queue's limit every link would always be crowded and `.readyToUpdate` would never
    /// come.
    public static let updateQueueCapacity = AttributeLink.bearerQueueLimit / 2

    /// Stores `value` and notifies or indicates it to every subscriber, truncated to each
    /// link's ATT_MTU−3. Returns false, sending nothing, when a subscriber's transmit
    /// queue is full (or `updateQueueCapacity` values are still on their way to it); a
    /// `.readyToUpdate` event follows when there is room (as CoreBluetooth's
    /// `updateValue(_:for:onSubscribedCentrals:)` does). Also false once the
    /// peripheral is closed.
    ///
    /// Synchronous, like CoreBluetooth's: the value is queued for the loop thread, in
    /// call order with every other call, and a later `value(of:)` sees it. Values
    /// streamed in a loop therefore reach the loop in batches instead of one thread
    /// hand-off each (and, from a task on the peripheral's `HostEventLoop`, with none).
    public func updateValue(_ value: [UInt8], for characteristic: GATTCharacteristic) -> Bool {
        guard updates.admit() else { return false }
        return loop.submitUpdate(value, for: characteristic, gate: updates)
    }

    /// Stores several values at once and pushes them to their subscribers: a central
    /// that takes Multiple Handle Value Notifications (it set that bit of Client
    /// Supported Features) gets the notified ones together, as few PDUs as its ATT_MTU
    /// allows (Core 5.4 Vol 3 Part F §3.4.7.4); every other subscriber gets each value as
    /// `updateValue` sends it. For related values that change together (a sensor's
    /// readings of one instant); a stream of one characteristic goes faster through
    /// `updateValue`. Returns once the loop has queued the PDUs; values to a link whose
    /// queue is full are not held back.
    public func updateValues(_ updates: [(characteristic: GATTCharacteristic, value: [UInt8])]) async {
        await controller.perform(orElse: ()) { stack in stack.attributes.update(updates) }
    }

    /// The current value of a characteristic with a stored value.
    public func value(of characteristic: GATTCharacteristic) async -> [UInt8]? {
        await controller.perform(orElse: nil) { stack in stack.attributes.gattServer?.value(of: characteristic) }
    }

    /// Serves a changed database from now on (a firmware that added a service, a file
    /// edited while serving). Connected centrals that subscribed to Service Changed are
    /// indicated `changedRange` at once; a bonded central that is away is indicated when
    /// it reconnects (Core 5.4 Vol 3 Part G §7.1), in this run or, with a bond storage,
    /// a later one; the range stays owed until the central confirms it. Every central is
    /// change-unaware until it rediscovers or reads the Database Hash. Subscriptions the
    /// new database keeps (same UUID at the same handle) go on; the others end with a
    /// `.databaseChanged` subscription change.
    public func replaceDatabase(_ database: GATTDatabase, changedRange: ClosedRange<UInt16> = 0x0001...0xFFFF) async {
        served.withLock { $0 = database }
        await controller.perform { stack in stack.attributes.replaceDatabase(database, changedRange: changedRange) }
    }

    /// Ends a connection.
    public func disconnect(_ handle: UInt16) async throws(ControllerError) {
        _ = try await controller.send(Disconnect(connectionHandle: handle))
    }

    /// Stops advertising and serving, and closes the controller.
    public func close() async {
        try? await advertiser.stop()
        await controller.perform { stack in stack.attributes.peripheralObserver = nil }
        // Centrals hear of it at once rather than after their supervision timeout.
        await controller.disconnectAll(timeout: .seconds(2))
        await controller.close()
        listeners.finishAll()
    }
}

/// The streams `Peripheral.events()` handed out, for the events the peripheral announces
/// itself rather than the loop (advertising resumed or failed).
final class PeripheralListeners: Sendable {
    private struct State {
        var continuations: [Int: AsyncStream<PeripheralEvent>.Continuation] = [:]
        var next = 0
    }

    private let state = Mutex(State())

    func add(_ continuation: AsyncStream<PeripheralEvent>.Continuation) -> Int {
        state.withLock { s in
            defer { s.next += 1 }
            s.continuations[s.next] = continuation
            return s.next
        }
    }

    func remove(_ id: Int) {
        _ = state.withLock { $0.continuations.removeValue(forKey: id) }
    }

    func yield(_ event: PeripheralEvent) {
        for continuation in state.withLock({ Array($0.continuations.values) }) { continuation.yield(event) }
    }

    func finishAll() {
        for continuation in state.withLock({ Array($0.continuations.values) }) { continuation.finish() }
    }
}

extension Controller {
    /// Runs `body` on the loop thread and returns its result (or `fallback` when the
    /// loop has stopped).
    func perform<T: Sendable>(orElse fallback: T, _ body: @escaping @Sendable (HostStack) -> T) async -> T {
        await withCheckedContinuation { continuation in
            loop.submit({ stack in continuation.resume(returning: body(stack)) },
                        refuse: { _ in continuation.resume(returning: fallback) })
        }
    }

    func perform(_ body: @escaping @Sendable (HostStack) -> Void) async {
        await perform(orElse: ()) { stack in body(stack) }
    }
}
