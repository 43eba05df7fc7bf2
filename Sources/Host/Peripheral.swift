import BluetoothCore
import GATT
import HCI
import Transport

/// The peripheral role: serve a GATT database and advertise, the way CoreBluetooth's
/// `CBPeripheralManager` does.
///
///     let peripheral = try await Peripheral.start(transport: spec, database: database)
///     try await peripheral.startAdvertising(data: advertisement)
///     for await event in peripheral.events() { … }
///     _ = await peripheral.updateValue(bpm, for: heartRateMeasurement)
///
/// `Sendable`: every call is carried out on the host's event loop.
public final class Peripheral: Sendable {
    public let controller: Controller
    public let database: GATTDatabase
    /// What the controller's start-up sequence learned.
    public let info: ControllerInfo

    private init(controller: Controller, database: GATTDatabase, info: ControllerInfo) {
        self.controller = controller
        self.database = database
        self.info = info
    }

    /// Opens the controller, runs its start-up sequence and starts serving `database`.
    public static func start(
        transport: TransportSpecification, database: GATTDatabase,
        configuration: GATTServer.Configuration = .init(), capturePath: String? = nil
    ) async throws(HCIError) -> Peripheral {
        let controller = try await Controller.open(transport, capturePath: capturePath)
        let info: ControllerInfo
        do {
            info = try await controller.start()
        } catch {
            await controller.close()
            throw error
        }
        await controller.perform { core in core.install(GATTServer(database: database, configuration: configuration)) }
        return Peripheral(controller: controller, database: database, info: info)
    }

    /// Connectable advertising with `data` (and an optional scan response).
    public func startAdvertising(data: [UInt8], scanResponse: [UInt8] = [], interval: Duration = .milliseconds(100)) async throws(HCIError) {
        try await controller.startAdvertising(data: data, scanResponse: scanResponse, interval: interval)
    }

    public func stopAdvertising() async throws(HCIError) {
        try await controller.stopAdvertising()
    }

    /// Everything that happens from now on: connections, subscriptions, MTU changes,
    /// confirmations, and `.readyToUpdate` after an `updateValue` that returned false.
    public func events() -> AsyncStream<PeripheralEvent> {
        let (stream, continuation) = AsyncStream<PeripheralEvent>.makeStream(bufferingPolicy: .bufferingNewest(4096))
        let loop = controller.loop
        loop.submit({ core in
            let id = core.addPeripheralListener(continuation)
            continuation.onTermination = { _ in
                loop.submit({ core in core.removePeripheralListener(id) }, refuse: { _ in })
            }
        }, refuse: { _ in continuation.finish() })
        return stream
    }

    /// Stores `value` and notifies or indicates it to every subscriber, truncated to each
    /// link's ATT_MTU−3. Returns false, sending nothing, when a subscriber's transmit
    /// queue is full; a `.readyToUpdate` event follows when there is room (as
    /// CoreBluetooth's `updateValue(_:for:onSubscribedCentrals:)` does).
    public func updateValue(_ value: [UInt8], for characteristic: GATTCharacteristic) async -> Bool {
        await controller.perform(orElse: false) { core in core.updateValue(value, for: characteristic) }
    }

    /// The current value of a characteristic with a stored value.
    public func value(of characteristic: GATTCharacteristic) async -> [UInt8]? {
        await controller.perform(orElse: nil) { core in core.gattServer?.value(of: characteristic) }
    }

    /// Ends a connection.
    public func disconnect(_ handle: UInt16) async throws(HCIError) {
        _ = try await controller.send(Disconnect(connectionHandle: handle))
    }

    /// Stops advertising and serving, and closes the controller.
    public func close() async {
        try? await controller.stopAdvertising()
        await controller.close()
    }
}

extension Controller {
    /// Runs `body` on the loop thread and returns its result (or `fallback` when the
    /// loop has stopped).
    func perform<T: Sendable>(orElse fallback: T, _ body: @escaping @Sendable (ControllerCore) -> T) async -> T {
        await withCheckedContinuation { continuation in
            loop.submit({ core in continuation.resume(returning: body(core)) },
                        refuse: { _ in continuation.resume(returning: fallback) })
        }
    }

    func perform(_ body: @escaping @Sendable (ControllerCore) -> Void) async {
        await perform(orElse: ()) { core in body(core) }
    }
}
