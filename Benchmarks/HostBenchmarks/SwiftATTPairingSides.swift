import SwiftATTAdvertising
import SwiftATTCore
import SwiftATTGATT
import SwiftATTHost
import SwiftATTSecurity
import SwiftATTTransport
import Synchronization
import TestSupport

/// swift-att's sides of the pairing benchmark: a `Central` and a `Peripheral`, each on a
/// `HostEventLoop` of its own that nothing else runs on, so that each loop thread's CPU
/// time is what that host spent — its Security Manager and crypto, L2CAP and HCI, its
/// transport, and its share of the loopback controller, which runs on whichever thread
/// calls it. The benchmark's task and the pairing delegate's tasks run on Swift's global
/// executor, outside both. Both hosts on one shared loop measure what the hand-offs
/// between two threads cost (then only the process's CPU time is told).
enum SwiftATTPairingHosts {
    static let centralIRK: UInt128 = 0x5EC0_0000_0000_0000_0000_0000_0000_0C01
    static let peripheralIRK: UInt128 = 0x5EC0_0000_0000_0000_0000_0000_0000_0901

    /// A peripheral that advertises, pairs as `method` says and reports each pairing; on
    /// a loop of its own unless `shared` is given.
    static func peripheral(_ transport: TransportSpecification, method: BenchPairingMethod,
                           on shared: HostEventLoop? = nil) async throws -> SwiftATTResponder {
        let loop = try shared ?? HostEventLoop(name: "pair-peripheral")
        let database = try GATTDatabase(services: [], genericAccess: GATTGenericAccess(deviceName: "pairing", appearance: 0))
        let peripheral = try await Peripheral.start(transport: transport, database: database, readvertising: .off, on: loop)
        try await peripheral.controller.configureSecurity(
            method.security(address: peripheral.info.randomAddress, identityResolvingKey: peripheralIRK), delegate: method.delegate)
        let responder = SwiftATTResponder(peripheral: peripheral, loop: loop, ownsLoop: shared == nil)
        var advertisement = AdvertisingDataBuilder()
        try advertisement.append(.flags(.leGeneralDiscoverableLEOnly))
        try await peripheral.startAdvertising(data: advertisement.advertisingData.encoded(), interval: .milliseconds(20))
        return responder
    }

    /// A central connected to `address` (advertising), pairing as `method` says; on a
    /// loop of its own unless `shared` is given.
    static func central(_ transport: TransportSpecification, method: BenchPairingMethod, connectingTo address: BluetoothAddress,
                        on shared: HostEventLoop? = nil) async throws -> SwiftATTInitiator {
        let loop = try shared ?? HostEventLoop(name: "pair-central")
        let central = try await Central.start(transport: transport, on: loop)
        try await central.controller.configureSecurity(
            method.security(address: central.info.randomAddress, identityResolvingKey: centralIRK), delegate: method.delegate)
        return SwiftATTInitiator(central: central, peer: try await central.connect(address), loop: loop, ownsLoop: shared == nil)
    }
}

extension HostEventLoop {
    /// The CPU time of this loop's thread so far, read by a task on it.
    func threadCPUSeconds() async -> Double {
        await Task(executorPreference: self) { CPUClock.threadSeconds() }.value
    }
}

/// A swift-att central pairing with its peer: `Peer.pair()` pairs anew each time, and
/// the new bond replaces the last.
struct SwiftATTInitiator: PairingInitiator {
    let central: Central
    let peer: Peer
    let loop: HostEventLoop
    /// Whether the loop runs this host alone, so that its thread's CPU time is this side's.
    let ownsLoop: Bool

    func pair() async throws -> (start: Double, end: Double) {
        let start = CPUClock.monotonicSeconds()
        try await peer.pair()
        return (start, CPUClock.monotonicSeconds())
    }

    func cpuSeconds() async -> Double? { ownsLoop ? await loop.threadCPUSeconds() : nil }

    func close() async { await central.close() }
}

/// A swift-att peripheral answering pairings. A task on the global executor follows
/// its security events and notes when each pairing completed (or why it failed) as it
/// hears of it.
final class SwiftATTResponder: PairingResponder, Sendable {
    struct Failed: Error, CustomStringConvertible {
        let failure: PairingFailure
        var description: String { "the swift-att peripheral's pairing failed: \(failure)" }
    }

    let peripheral: Peripheral
    let loop: HostEventLoop
    let ownsLoop: Bool
    private let outcomes = ArrivalLog<Result<Double, PairingFailure>>()
    private let consumed = Atomic<Int>(0)
    private let watcher: Task<Void, Never>

    init(peripheral: Peripheral, loop: HostEventLoop, ownsLoop: Bool) {
        self.peripheral = peripheral
        self.loop = loop
        self.ownsLoop = ownsLoop
        let events = peripheral.controller.securityEvents()
        let outcomes = self.outcomes
        watcher = Task {
            for await event in events {
                switch event.change {
                case .paired: outcomes.append(.success(CPUClock.monotonicSeconds()))
                case let .pairingFailed(failure): outcomes.append(.failure(failure))
                default: break
                }
            }
        }
    }

    func completed() async throws -> Double {
        let position = consumed.add(1, ordering: .relaxed).oldValue
        let (outcome, _) = try await outcomes.first("the peripheral's pairing number \(position + 1)", from: position,
                                                    within: .seconds(30)) { $0 }
        return try outcome.mapError(Failed.init).get()
    }

    func cpuSeconds() async -> Double? { ownsLoop ? await loop.threadCPUSeconds() : nil }

    func close() async {
        watcher.cancel()
        await peripheral.close()
    }
}
