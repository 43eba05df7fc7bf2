import SwiftATTAdvertising
import SwiftATTPDU
import SwiftATTCore
import SwiftATTGATT
import SwiftATTHCI
import Synchronization

/// A connected peer's GATT server, seen from our client: what CoreBluetooth's
/// `CBPeripheral` is to an app.
///
///     let peer = try await central.connect(device.address)
///     let database = try await peer.discoverDatabase()
///     let measurement = database.characteristics(uuid: BluetoothUUID(0x2A37)).first!
///     for try await value in try await peer.notifications(of: measurement) { … }
///
/// Every call runs a GATT procedure (Core 5.4 Vol 3 Part G §4) on the host's event loop;
/// a link runs one procedure at a time, in the order they were called. A call fails with
/// a typed `GATTClientError`: the server's Error Response, a timeout (30 s, after which
/// the bearer is closed as Part F §3.3.3 requires), `disconnected(reason)` when the link
/// goes down, `cancelled` when the calling task is cancelled. `Sendable`.
public final class Peer: Sendable {
    /// The conversation with the controller the link runs on.
    public let controller: Controller
    /// The HCI connection handle.
    public let handle: UInt16
    /// The peer's address on this link.
    public let address: BluetoothAddress

    struct State {
        var database = GATTClientDatabase()
        var serviceChangeListeners: [Int: AsyncStream<GATTClientDatabase.Invalidation>.Continuation] = [:]
        var nextListener = 0
        /// Service Changed indications are being applied (`watchServiceChanged`).
        var watchingServiceChanged = false
    }

    let state = Mutex(State())
    static let procedureIDs = Atomic<Int>(0)

    init(controller: Controller, handle: UInt16, address: BluetoothAddress) {
        self.controller = controller
        self.handle = handle
        self.address = address
    }

    /// What discovery has learned of the peer's database so far (kept current by
    /// Service Changed indications).
    public var database: GATTClientDatabase { state.withLock { $0.database } }

    /// ATT_MTU now: 23 until an Exchange MTU (`Central.connect` runs one).
    public var mtu: Int {
        get async { await controller.perform(orElse: ATTLimits.defaultMTU) { [handle] stack in stack.attributes.mtu(of: handle) ?? ATTLimits.defaultMTU } }
    }

    /// Runs a GATT procedure made with the link's ATT_MTU when its turn comes, and
    /// returns its output. The building block of every other call; use it for procedures
    /// they do not cover.
    ///
    /// A request the server refuses for want of security (Insufficient Authentication,
    /// Insufficient Encryption, Encryption Key Size Too Short) makes the host encrypt the
    /// link or pair, then run the procedure once more, unless the host's
    /// `SecurityConfiguration.pairsOnSecurityError` is off.
    public func run<Procedure: GATTProcedure>(
        _ make: @escaping @Sendable (_ mtu: Int) -> Procedure
    ) async throws(GATTClientError) -> Procedure.Output {
        do {
            return try await runOnce(make)
        } catch {
            guard let code = Self.isSecurityRefusal(error),
                  controller.securityConfiguration.pairsOnSecurityError else { throw error }
            try await secureAfter(code)
            return try await runOnce(make)
        }
    }

    private func runOnce<Procedure: GATTProcedure>(
        _ make: @escaping @Sendable (_ mtu: Int) -> Procedure
    ) async throws(GATTClientError) -> Procedure.Output {
        let id = Self.procedureIDs.add(1, ordering: .relaxed).newValue
        let gate = CancellationGate()
        let loop = controller.loop
        let handle = self.handle
        let result: Result<Procedure.Output, GATTClientError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let submitted = gate.submit {
                    loop.submit({ stack in
                        stack.attributes.run(ProcedureRun(id: id, make: make) { continuation.resume(returning: $0) }, on: handle)
                    }, refuse: { reason in
                        continuation.resume(returning: .failure(.disconnected(.controllerStopped(reason))))
                    })
                }
                if !submitted { continuation.resume(returning: .failure(.cancelled)) }
            }
        } onCancel: {
            gate.cancel {
                loop.submit({ stack in stack.attributes.cancelProcedure(id, on: handle) }, refuse: { _ in })
            }
        }
        return try result.get()
    }

    /// Exchange MTU (Part G §4.3.1), once per connection; returns ATT_MTU after it. A
    /// server that does not support it leaves ATT_MTU at 23; a second call returns the
    /// current value.
    @discardableResult
    public func exchangeMTU() async throws(GATTClientError) -> Int {
        do {
            _ = try await run { mtu in MTUExchange(receiveMTU: UInt16(AttributeLink.receiveMTU), mtu: mtu) }
        } catch {
            switch error {
            case .attributeError, .bearer(.mtuAlreadyExchanged): break
            default: throw error
            }
        }
        return await mtu
    }

    // MARK: Connection

    /// Ends the link and waits (up to `timeout`) for the controller's Disconnection
    /// Complete. Pending calls fail with `disconnected`.
    public func disconnect(timeout: Duration = .seconds(5)) async throws(CentralError) {
        // What was sent last (a Write Command, the last keys of a pairing) goes first.
        await controller.drainACL(on: [handle], within: .seconds(1))
        let events = controller.events()
        do {
            _ = try await controller.send(Disconnect(connectionHandle: handle))
        } catch {
            throw .controller(error)
        }
        let handle = self.handle
        let reason = await Controller.firstEvent(in: events, within: timeout) { event -> HCIStatus? in
            if case let .disconnectionComplete(d) = event, d.connectionHandle == handle { return d.reason }
            return nil
        }
        if reason == nil { throw .timedOut(timeout) }
    }

    /// Waits until the link goes down, and returns the reason.
    public func disconnection() async -> HCIStatus? {
        let handle = self.handle
        let events = controller.events()
        guard await controller.perform(orElse: false, { stack in stack.attributes.mtu(of: handle) != nil }) else { return nil }
        for await event in events {
            if case let .disconnectionComplete(d) = event, d.connectionHandle == handle { return d.reason }
            // The host resets a failed controller, which ends every link without a
            // Disconnection Complete (Core 5.4 Vol 4 Part E §7.7.16).
            if case .hardwareError = event { return .hardwareFailure }
        }
        return nil
    }
}
