import SwiftATTAdvertising
import SwiftATTGATT
import SwiftATTCore
import SwiftATTHCI
import Synchronization
import SwiftATTTransport

/// The central role: scan, connect, disconnect, the way CoreBluetooth's
/// `CBCentralManager` does.
///
///     let central = try await Central.start(transport: spec)
///     for await device in central.scan(ScanFilter(services: [BluetoothUUID(0x180D)])) { … }
///     let link = try await central.connect(device.address)
///
/// `Sendable`: calls are carried out on the host's event loop.
public final class Central: Sendable {
    /// The conversation with the controller this central runs on.
    public let controller: Controller
    /// What the controller said about itself at start-up.
    public let info: ControllerInfo
    /// The loop whose thread runs this host (`Controller.eventLoop`).
    public var eventLoop: HostEventLoop { controller.eventLoop }

    private init(controller: Controller, info: ControllerInfo) {
        self.controller = controller
        self.info = info
    }

    /// Opens the controller and runs its start-up sequence. `transactionTimeout` is how
    /// long the peer's server may take to answer a request before the call fails with
    /// `timedOut` and the link's bearer closes (the spec's 30 s; shorter for tests). The
    /// host runs on `eventLoop`, by default the process's `HostEventLoop.shared`. With
    /// `storage`, the host connects under the identity it keeps for this adapter and keeps
    /// its bonds there (`Controller.start(storage:)`); without, under a fresh static random
    /// address with bonds in memory.
    public static func start(
        transport: TransportSpecification, capturePath: String? = nil, transactionTimeout: Duration = .seconds(30),
        storage: (any SecurityStorage)? = nil, on eventLoop: HostEventLoop? = nil
    ) async throws(ControllerError) -> Central {
        let controller = try await Controller.open(transport, capturePath: capturePath, on: eventLoop)
        await controller.perform { stack in stack.attributes.transactionTimeout = transactionTimeout }
        do {
            return Central(controller: controller, info: try await controller.start(.init(storage)))
        } catch {
            await controller.close()
            throw error
        }
    }

    /// Opens the controller named by a transport string ("hci0", "serial:/dev/ttyUSB0",
    /// "tcp:127.0.0.1:9000") and runs its start-up sequence.
    public static func start(transport: String, capturePath: String? = nil, storage: (any SecurityStorage)? = nil,
                             on eventLoop: HostEventLoop? = nil) async throws(ControllerError) -> Central {
        try await start(transport: try .hostParsing(transport), capturePath: capturePath, storage: storage, on: eventLoop)
    }

    /// Scans for devices advertising any of `services` (every device when empty), as
    /// `CBCentralManager.scanForPeripherals(withServices:)` does.
    public func scan(services: [BluetoothUUID], allowDuplicates: Bool = false) -> AsyncThrowingStream<DiscoveredDevice, any Error> {
        scan(ScanFilter(services: services), allowDuplicates: allowDuplicates)
    }

    /// Scans until the consumer stops iterating (then scanning stops). Reports and scan
    /// responses are merged per address; each matching device is delivered once, or at
    /// every report with `allowDuplicates` (CoreBluetooth's AllowDuplicates). Legacy or
    /// extended scanning as the controller supports. A bonded device advertising under
    /// a resolvable private address comes with its `identity`, resolved with its IRK.
    public func scan(_ filter: ScanFilter = ScanFilter(), active: Bool = true, allowDuplicates: Bool = false,
                     interval: UInt16 = 0x60, window: UInt16 = 0x30) -> AsyncThrowingStream<DiscoveredDevice, any Error> {
        let controller = self.controller
        return AsyncThrowingStream { continuation in
            let task = Task {
                let events = controller.events()
                let commands: (start: [HCICommandPacket], stop: [HCICommandPacket])
                do {
                    commands = try controller.scanningCommands(active: active, interval: interval, window: window)
                } catch {
                    continuation.finish(throwing: error)
                    return
                }
                // The resolving list in step with the bonds; with privacy on, a fresh
                // private address if the last has expired.
                _ = await controller.prepareRadioStart()
                let started: ControllerError? = await withCheckedContinuation { done in
                    controller.loop.submit({ stack in stack.scanning.begin(commands.start) { done.resume(returning: $0) } },
                                           refuse: { done.resume(returning: $0) })
                }
                if let started {
                    continuation.finish(throwing: started)
                    return
                }
                defer { controller.loop.submit({ stack in stack.scanning.end(commands.stop) }, refuse: { _ in }) }
                var merger = AdvertisementMerger()
                var delivered = Set<BluetoothAddress>()
                var identities = IdentityResolver(bonds: controller.bonds)
                for await event in events {
                    if Task.isCancelled { break }
                    for report in AdvertisingReport.reports(in: event) {
                        var device = merger.merge(address: report.address, payload: report.data[...], rssi: report.rssi,
                                                  isScanResponse: report.isScanResponse, at: .now)
                        // The controller names a peer it resolved by its identity; the
                        // host resolves what it did not (IdentityResolver).
                        device.identity = report.isResolvedIdentity ? report.address : identities.identity(of: device.address)
                        guard filter.matches(device) else { continue }
                        if allowDuplicates || delivered.insert(device.address).inserted {
                            continuation.yield(device)
                        }
                    }
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// Connects to `address`. If the link is not up within `timeout` the attempt is
    /// cancelled (LE Create Connection Cancel) and `.timedOut` is thrown; so is it when the
    /// calling task is cancelled (then `.cancelled`). A controller that rejects the
    /// attempt throws its status. With `exchangeMTU` (the default) the
    /// link's ATT_MTU is negotiated before this returns. With a `security` requirement
    /// the link is encrypted (with the bond) or paired until it meets it (`Peer.require`)
    /// before this returns; if it cannot, the link is ended and `.security` thrown.
    public func connect(_ address: BluetoothAddress, timeout: Duration = .seconds(10),
                        parameters: LEConnectionParameters = .init(intervalMin: 24, intervalMax: 40, maxLatency: 0, supervisionTimeout: 400),
                        exchangeMTU: Bool = true, security: AttributePermissions.Access = .open
    ) async throws(CentralError) -> Peer {
        let events = controller.events()
        do {
            try await controller.createConnection(to: address, parameters: parameters)
        } catch {
            throw .controller(error)
        }
        let controller = self.controller
        let outcome = await Controller.awaitEvent(in: events, within: timeout) { event -> Result<UInt16, CentralError>? in
            guard case let .leMeta(meta) = event else { return nil }
            switch meta {
            case let .connectionComplete(c) where c.peerAddress == address || !c.status.isSuccess:
                return c.status.isSuccess ? .success(c.connectionHandle) : .failure(.connectionFailed(c.status))
            case let .enhancedConnectionComplete(c) where ConnectionState.completes(c, connectingTo: address):
                return c.status.isSuccess ? .success(c.connectionHandle) : .failure(.connectionFailed(c.status))
            case let .enhancedConnectionCompleteV2(v2) where ConnectionState.completes(v2.connection, connectingTo: address):
                let c = v2.connection
                return c.status.isSuccess ? .success(c.connectionHandle) : .failure(.connectionFailed(c.status))
            default:
                return nil
            }
        }
        switch outcome {
        case let .found(.success(handle)):
            let peer = Peer(controller: controller, handle: handle, address: address)
            if security != .open {
                do {
                    try await peer.require(security)
                } catch {
                    try? await peer.disconnect()
                    throw .security(error)
                }
            }
            if exchangeMTU {
                // As CoreBluetooth does: the largest ATT_MTU both sides allow, at once.
                do {
                    try await peer.exchangeMTU()
                } catch {
                    throw .gatt(error)
                }
            }
            return peer
        case let .found(.failure(error)):
            throw error
        case .timedOut:
            try? await controller.cancelConnection()
            throw .timedOut(timeout)
        case .cancelled:
            // The controller would go on trying to connect: stop it (Core 5.4 Vol 4
            // Part E §7.8.13), as CoreBluetooth's cancelPeripheralConnection does.
            try? await controller.cancelConnection()
            throw .cancelled
        case .ended:
            throw .controller(.closed)
        }
    }

    /// Ends every link this host has (Disconnect, waiting up to `timeout` for each
    /// Disconnection Complete: a peer then knows at once, rather than after its
    /// supervision timeout), then stops the controller.
    public func close(timeout: Duration = .seconds(2)) async {
        await controller.disconnectAll(timeout: timeout)
        await controller.close()
    }
}

/// Why a central operation failed.
public enum CentralError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The controller failed a command or went away.
    case controller(ControllerError)
    /// The connection attempt ended with this status in the connection complete event.
    case connectionFailed(HCIStatus)
    /// No connection within the time given; the attempt was cancelled.
    case timedOut(Duration)
    /// The task waiting for the connection was cancelled; the attempt was cancelled too.
    case cancelled
    /// A GATT procedure the call ran failed.
    case gatt(GATTClientError)
    /// The link could not be secured as `connect(security:)` asked (it was ended).
    case security(PairingError)

    public var description: String {
        switch self {
        case let .gatt(error): return error.description
        case let .security(error): return error.description
        case let .controller(error): return error.description
        case let .connectionFailed(status): return "connection failed: \(status)"
        case let .timedOut(duration): return "timed out after \(duration)"
        case .cancelled: return "cancelled before the connection was made"
        }
    }
}
