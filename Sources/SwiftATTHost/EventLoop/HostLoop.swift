import SwiftATTGATT
import SwiftATTHCI
import SwiftATTTransport

/// One host's handle on the loop that runs it: its slot in a `LoopRunner`, and the
/// `HostEventLoop` that keeps the runner's thread going (the host's own, or one it
/// shares).
///
/// All protocol state lives in a `HostStack` that only the loop's thread touches;
/// other threads reach it by `submit`ting a job. That is how the public API stays
/// `Sendable` without locks around protocol state.
final class HostLoop: Sendable {
    typealias Job = LoopRunner.Job
    typealias Refusal = LoopRunner.Refusal

    let eventLoop: HostEventLoop
    /// `eventLoop.runner`, kept here so that a value on its way to the loop does not
    /// retain and release `eventLoop` to reach it.
    private let runner: LoopRunner
    private let slot: Int

    private init(eventLoop: HostEventLoop, slot: Int) {
        self.eventLoop = eventLoop
        self.runner = eventLoop.runner
        self.slot = slot
    }

    /// Opens `specification` (on a thread of its own: `TransportOpening`), then joins
    /// its host to `eventLoop` (`HostEventLoop.shared` when nil); returns once the host
    /// runs there. With `capturePath`, every packet is also written to that btsnoop file.
    static func start(_ specification: TransportSpecification, capturePath: String?,
                      on eventLoop: HostEventLoop?) async throws(ControllerError) -> HostLoop {
        let loop: HostEventLoop
        if let eventLoop { loop = eventLoop } else { loop = try HostEventLoop.shared }
        let opened = try await TransportOpening.open(specification, capturePath: capturePath)
        let runner = loop.runner
        let slot = runner.addHost()
        let joined: Result<Void, ControllerError> = await withCheckedContinuation { continuation in
            runner.open(slot: slot, {
                let (transport, capture) = opened.take()
                let stack = HostStack(transport: transport)
                if let capture {
                    stack.hci.packetObserver = { packet, outbound in capture.record(packet, outbound: outbound) }
                }
                continuation.resume(returning: .success(()))
                return stack
            }, refuse: { reason in
                // The loop ended meanwhile (a released `HostEventLoop`): the device
                // goes back rather than staying open with no host.
                opened.take().transport.close()
                continuation.resume(returning: .failure(reason))
            })
        }
        try joined.get()
        return HostLoop(eventLoop: loop, slot: slot)
    }

    /// Runs `job` on the loop thread; once the host has stopped, calls `refuse` instead
    /// (on the caller's thread) with the reason it stopped. False when it was refused.
    @discardableResult
    func submit(_ job: @escaping Job, refuse: @escaping Refusal) -> Bool {
        runner.enqueue(.job(run: job, refuse: refuse), forHost: slot)
    }

    /// Sends `packet` from the loop thread; `waiter` (a task) gets its answer, or why
    /// the host could not send it.
    @inline(__always)
    func submit(_ packet: consuming HCICommandPacket, timeout: Duration, waiter: consuming CommandWaiter) {
        runner.send(packet, timeout: timeout, waiter: waiter, forHost: slot)
    }

    /// Queues a value `gate` admitted, for `AttributeLinks.applyUpdates` in call order
    /// with every job. Once the host has stopped, gives the gate its slot back and
    /// returns false.
    func submitUpdate(_ value: [UInt8], for characteristic: GATTCharacteristic, gate: UpdateGate) -> Bool {
        guard runner.enqueue(.update(value, characteristic), forHost: slot) else {
            _ = gate.settle(applied: 1, congested: false)
            return false
        }
        return true
    }
}
