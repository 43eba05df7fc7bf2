#if canImport(Glibc)
import Glibc
#endif
import GATT
import Synchronization
import Transport

/// One host's event loop: a dedicated thread that blocks in `poll(2)` on the transport
/// and a wake-up descriptor, runs the jobs other threads submit, and fires deadlines.
///
/// All protocol state lives in a `ControllerCore` that only this thread touches; other
/// threads reach it by `submit`ting a job. That is how the public API stays `Sendable`
/// without locks around protocol state.
final class HostLoop: Sendable {
    typealias Job = @Sendable (ControllerCore) -> Void
    typealias Refusal = @Sendable (HCIError) -> Void

    /// What other threads hand the loop, in the order they hand it.
    private enum Work: Sendable {
        case job(run: Job, refuse: Refusal)
        /// A `Peripheral.updateValue` value its gate admitted: its own case rather than
        /// a closure, so that a stream of values allocates no job per value.
        case update([UInt8], GATTCharacteristic, UpdateGate)
    }

    private struct Queue {
        var work: [Work] = []
        /// Set once the loop has stopped: why, so late jobs fail with the same reason.
        var stopReason: HCIError?
    }

    private let queue = Mutex(Queue())
    private let wake = WakeSignal()

    private init() {}

    /// Opens `specification` on a new loop thread; returns once the transport is open.
    /// With `capturePath`, every packet is also written to that btsnoop file.
    static func start(_ specification: TransportSpecification, capturePath: String?) async throws(HCIError) -> HostLoop {
        let loop = HostLoop()
        let opened: Result<Void, HCIError> = await withCheckedContinuation { continuation in
            LoopThread.start {
                let transport: any HCITransport
                let capture: BTSnoopFileWriter?
                do throws(TransportError) {
                    capture = try capturePath.map { path throws(TransportError) in try BTSnoopFileWriter(path: path) }
                    transport = try specification.open(acceptTimeout: .seconds(30))
                } catch {
                    continuation.resume(returning: .failure(.transport(error)))
                    return
                }
                let core = ControllerCore(transport: transport)
                if let capture {
                    core.packetObserver = { packet, outbound in capture.record(packet, outbound: outbound) }
                }
                continuation.resume(returning: .success(()))
                loop.run(core)
            }
        }
        try opened.get()
        return loop
    }

    /// Runs `job` on the loop thread; once the loop has stopped, calls `refuse` instead
    /// (on the caller's thread) with the reason it stopped.
    ///
    /// Only the first job of a batch writes to the wake-up pipe: the loop empties the
    /// pipe before it takes the queue, and takes all of it, so a job added to a queue
    /// that was not empty is already bound to run. A burst of calls (`updateValue` in a
    /// loop) then costs one system call, not one each. False when it was refused.
    @discardableResult
    func submit(_ job: @escaping Job, refuse: @escaping Refusal) -> Bool {
        guard let stopReason = enqueue(.job(run: job, refuse: refuse)) else { return true }
        refuse(stopReason)
        return false
    }

    /// Queues a value `gate` admitted, for `ControllerCore.applyUpdate` in call order
    /// with every job. Once the loop has stopped, gives the gate its slot back and
    /// returns false.
    func submitUpdate(_ value: [UInt8], for characteristic: GATTCharacteristic, gate: UpdateGate) -> Bool {
        guard enqueue(.update(value, characteristic, gate)) != nil else { return true }
        _ = gate.settle(applied: 1, congested: false)
        return false
    }

    /// Nil when queued (waking the loop if the queue was empty), else why the loop stopped.
    private func enqueue(_ work: Work) -> HCIError? {
        let outcome = queue.withLock { q -> (stopReason: HCIError?, first: Bool) in
            if let reason = q.stopReason { return (reason, false) }
            q.work.append(work)
            return (nil, q.work.count == 1)
        }
        if outcome.first { wake.signal() }
        return outcome.stopReason
    }

    private func run(_ core: ControllerCore) {
        var fds = [
            pollfd(fd: core.transport.fileDescriptor, events: Int16(POLLIN), revents: 0),
            pollfd(fd: wake.fileDescriptor, events: Int16(POLLIN), revents: 0),
        ]
        // Swapped with the queue's array each turn: both keep their capacity, so taking
        // a batch allocates nothing.
        var ready: [Work] = []
        while core.isRunning {
            let timeout: Int32
            if let deadline = core.nextDeadline {
                let remaining = deadline - ContinuousClock.now
                timeout = remaining <= .zero ? 0 : Self.milliseconds(remaining)
            } else {
                timeout = -1
            }
            let n = poll(&fds, 2, timeout)
            if n < 0 && errno != EINTR {
                core.fail(.transport(.systemCall("poll", .current, context: core.transport.name)))
                break
            }
            if fds[1].revents != 0 {
                wake.drain()
                queue.withLock { q in swap(&q.work, &ready) }
                for work in ready {
                    switch work {
                    case let .job(run, _): run(core)
                    case let .update(value, characteristic, _): core.applyUpdate(value, for: characteristic)
                    }
                }
                ready.removeAll(keepingCapacity: true)
            }
            if fds[0].revents != 0 && core.isRunning {
                core.readTransport()
            }
            core.expire(now: .now)
            core.flushOutput()
        }
        let reason = core.stopReason ?? .closed
        var leftovers: [Work] = []
        queue.withLock { q in
            q.stopReason = reason
            swap(&q.work, &leftovers)
        }
        core.shutdown(reason)
        for work in leftovers {
            switch work {
            case let .job(_, refuse): refuse(reason)
            case let .update(_, _, gate): _ = gate.settle(applied: 1, congested: false)
            }
        }
    }

    static func milliseconds(_ d: Duration) -> Int32 {
        let c = d.components
        let ms = c.seconds * 1000 + (c.attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return Int32(clamping: max(1, ms))
    }
}
