#if canImport(Glibc)
import Glibc
#endif
import SwiftATTGATT
import Synchronization
import SwiftATTTransport

/// The thread behind a `HostEventLoop`: it blocks in `poll(2)` on its hosts' transports
/// and a wake-up descriptor, runs what other threads hand it in the order they hand it
/// (jobs for a host, `updateValue` values, tasks that prefer the loop), and fires each
/// host's deadlines.
///
/// Each host's protocol state lives in a `ControllerCore` that only this thread touches;
/// a host is known to the runner by its slot, which `HostLoop` holds.
final class LoopRunner: Sendable {
    typealias Job = @Sendable (ControllerCore) -> Void
    typealias Refusal = @Sendable (HCIError) -> Void
    /// Opens a host's transport on the loop thread; nil when it failed (the opener has
    /// told its caller why).
    typealias Opener = @Sendable () -> ControllerCore?

    /// What a host's callers hand its loop.
    enum Work: Sendable {
        case job(run: Job, refuse: Refusal)
        /// A `Peripheral.updateValue` value its gate admitted: its own case rather than
        /// a closure, so that a stream of values allocates no job per value. It does not
        /// carry its gate (a retain and a release per value): the host's core holds it
        /// (`ControllerCore.updateGate`), and a value refused before it reaches the
        /// queue gives its slot back in `HostLoop.submitUpdate`.
        case update([UInt8], GATTCharacteristic)

        /// Tells whoever handed it that it will not run: a job's caller. A value needs no
        /// word: its slot is given back with the host's other unapplied values
        /// (`retire`), or by `submitUpdate` when the queue refused it.
        func refuse(_ reason: HCIError) {
            if case let .job(_, refuse) = self { refuse(reason) }
        }
    }

    private enum Item: Sendable {
        case host(slot: Int, Work)
        case open(slot: Int, Opener, refuse: Refusal)
        case task(UnownedJob)
    }

    private struct State: ~Copyable {
        var items = MoveQueue<Item>()
        /// Why each host stopped, by slot; nil while it runs or opens.
        var stopReasons: [HCIError?] = []
        /// The `HostEventLoop` was released: end once no host is left.
        var released = false
        /// The thread has ended; nothing more will run.
        var exited = false
        var executor: UnownedTaskExecutor?
    }

    /// A host's own loop ends with its host; a shared one when it is released.
    private let endsWithItsHosts: Bool
    private let state = Mutex(State())
    private let wake = WakeSignal()
    /// The loop thread's `pthread_self()`, so that work it hands itself skips the
    /// wake-up pipe (it looks at its queue before it next blocks).
    private let thread = Atomic<UInt>(0)

    init(endsWithItsHosts: Bool) {
        self.endsWithItsHosts = endsWithItsHosts
    }

    func start(executor: UnownedTaskExecutor, name: String) {
        state.withLock { $0.executor = executor }
        LoopThread.start(name: name) { [self] in run(executor: executor) }
    }

    /// The handle is gone: no task can prefer the loop any more.
    func release() {
        state.withLock { $0.released = true }
        wake.signal()
    }

    // MARK: Handing work to the loop

    /// A slot for a host about to open.
    func addHost() -> Int {
        state.withLock { s in
            s.stopReasons.append(nil)
            return s.stopReasons.count - 1
        }
    }

    /// Runs `open` on the loop thread; the host it returns joins the loop.
    func open(slot: Int, _ open: @escaping Opener, refuse: @escaping Refusal) {
        if let reason = append(.open(slot: slot, open, refuse: refuse), slot: nil) { refuse(reason) }
    }

    /// Queues `work` for the host in `slot`; once that host (or the loop) has stopped,
    /// refuses it instead, on the caller's thread, with the reason. False when refused.
    func enqueue(_ work: consuming Work, forHost slot: Int) -> Bool {
        guard let reason = append(.host(slot: slot, work), slot: slot) else { return true }
        work.refuse(reason)
        return false
    }

    func enqueue(job: UnownedJob) {
        guard append(.task(job), slot: nil) != nil else { return }
        // Only reachable if a task outlived the loop it prefers; running it here beats
        // losing it.
        if let executor = state.withLock({ $0.executor }) { job.runSynchronously(on: executor) }
    }

    /// Only the first item of a batch writes to the wake-up pipe: the loop empties the
    /// pipe before it takes the queue, and takes all of it, so an item added to a queue
    /// that was not empty is already bound to run. A burst of calls (`updateValue` in a
    /// loop) costs one system call, not one each, and none from the loop's own thread.
    private func append(_ item: consuming Item, slot: Int?) -> HCIError? {
        // Moved into the queue, not copied (`MoveQueue`): the lock's closure takes it
        // out of the optional.
        var item = Optional(item)
        let outcome = state.withLock { s -> (refusal: HCIError?, first: Bool) in
            if let slot, let reason = s.stopReasons[slot] { return (reason, false) }
            if s.exited { return (.closed, false) }
            s.items.append(item.take()!)
            return (nil, s.items.count == 1)
        }
        if outcome.first && thread.load(ordering: .relaxed) != UInt(pthread_self()) { wake.signal() }
        return outcome.refusal
    }

    // MARK: The loop

    private func run(executor: UnownedTaskExecutor) {
        thread.store(UInt(pthread_self()), ordering: .relaxed)
        var hosts = Hosts(wake: wake.fileDescriptor)
        // Exchanged with the queue each turn: both keep their capacity, so taking a
        // batch allocates nothing.
        var ready = MoveQueue<Item>()
        // Which hosts' transports said packets already wait in memory, this turn, in the
        // order of `hosts.active` (kept between turns: no allocation).
        var waiting: [Bool] = []
        while true {
            // A transport that hands packets over in memory says whether some already
            // wait: nothing wrote to its descriptor while the loop was running.
            waiting.removeAll(keepingCapacity: true)
            for slot in hosts.active { waiting.append(hosts.cores[slot]!.transport.prepareToWait()) }
            let pending = waiting.contains(true) || state.withLock { !$0.items.isEmpty }
            // The earliest deadline of any host, found without allocating (every turn).
            var earliest: ContinuousClock.Instant?
            if !pending {
                for slot in hosts.active {
                    guard let deadline = hosts.cores[slot]!.nextDeadline else { continue }
                    if earliest.map({ deadline < $0 }) ?? true { earliest = deadline }
                }
            }
            let n = poll(&hosts.fds, nfds_t(hosts.fds.count), pending ? 0 : Self.timeout(until: earliest))
            if n < 0 && errno != EINTR {
                let error = Errno.current
                for slot in hosts.active {
                    let core = hosts.cores[slot]!
                    core.fail(.transport(.systemCall("poll", error, context: core.transport.name)))
                }
            }
            // Read like a descriptor that `poll` found readable.
            for (index, slot) in hosts.active.enumerated() {
                hosts.cores[slot]!.transport.finishedWaiting()
                if waiting[index] { hosts.fds[index + 1].revents |= Int16(POLLIN) }
            }
            if hosts.fds[0].revents != 0 { wake.drain() }
            state.withLock { s in s.items.exchange(with: &ready) }
            ready.drain { item in hosts.run(item, executor: executor, runner: self) }
            hosts.applyUpdates()
            for (index, slot) in hosts.active.enumerated() where hosts.fds[index + 1].revents != 0 {
                let core = hosts.cores[slot]!
                if core.isRunning { core.readTransport() }
            }
            let now = ContinuousClock.now
            var stopped = false
            for slot in hosts.active {
                let core = hosts.cores[slot]!
                core.expire(now: now)
                core.flushOutput()
                stopped = stopped || !core.isRunning
            }
            if stopped {
                for slot in hosts.active where !hosts.cores[slot]!.isRunning {
                    retire(hosts.cores[slot]!, slot: slot)
                    hosts.cores[slot] = nil
                }
                hosts.active.removeAll { hosts.cores[$0] == nil }
                hosts.fds.removeSubrange(1...)
                for slot in hosts.active {
                    hosts.fds.append(pollfd(fd: hosts.cores[slot]!.transport.fileDescriptor, events: Int16(POLLIN), revents: 0))
                }
            }
            if hosts.active.isEmpty, let leftovers = finishIfDone(hadHost: hosts.hadHost) {
                for item in leftovers {
                    switch item {
                    case let .host(_, work): work.refuse(.closed)
                    case let .open(_, _, refuse): refuse(.closed)
                    case let .task(job): job.runSynchronously(on: executor)
                    }
                }
                return
            }
        }
    }

    /// The hosts the loop runs, and the descriptors it polls: the loop thread's own.
    private struct Hosts {
        var cores: [ControllerCore?] = []
        /// Slots with a running core, in the order of their descriptors in `fds`.
        var active: [Int] = []
        var fds: [pollfd]
        var hadHost = false
        /// `updateValue` values for one host's characteristic that came off the queue
        /// back to back: applied as one run (`ControllerCore.applyUpdates`) when another
        /// kind of item, host or characteristic comes up, or the batch ends.
        var updates: [[UInt8]] = []
        var updatesSlot = 0
        var updatesCharacteristic: GATTCharacteristic?

        init(wake: Int32) {
            fds = [pollfd(fd: wake, events: Int16(POLLIN), revents: 0)]
        }

        /// Runs one queued item. It is consumed, and each case takes its payload over:
        /// a value, its characteristic and its gate go from the queue to the host
        /// without a retain (a `switch` on a copy retained each payload, and the
        /// copy's end released it again).
        mutating func run(_ item: consuming Item, executor: UnownedTaskExecutor, runner: LoopRunner) {
            switch consume item {
            case let .host(slot, work):
                // Not bound: a value needs no core until its run is applied, and binding
                // one retains and releases it per value.
                guard slot < cores.count, cores[slot] != nil else {
                    // Unreachable in practice: a host is retired between batches, with
                    // its queued work. A value here would keep its gate's slot, which
                    // only a host that is gone would miss.
                    applyUpdates()
                    work.refuse(.closed)
                    return
                }
                switch consume work {
                case let .job(run, _):
                    applyUpdates()
                    if let core = cores[slot] { run(core) }
                case let .update(value, characteristic):
                    if slot != updatesSlot || characteristic !== updatesCharacteristic {
                        applyUpdates()
                        updatesSlot = slot
                        updatesCharacteristic = characteristic
                    }
                    updates.append(value)
                }
            case let .open(slot, open, _):
                applyUpdates()
                hadHost = true
                guard let core = open() else {
                    runner.state.withLock { $0.stopReasons[slot] = .closed }
                    return
                }
                while cores.count <= slot { cores.append(nil) }
                cores[slot] = core
                active.append(slot)
                fds.append(pollfd(fd: core.transport.fileDescriptor, events: Int16(POLLIN), revents: 0))
            case let .task(job):
                applyUpdates()
                job.runSynchronously(on: executor)
            }
        }

        /// Applies the values gathered for one characteristic (`updates`), in order,
        /// before whatever came after them on the queue runs.
        mutating func applyUpdates() {
            guard let characteristic = updatesCharacteristic else { return }
            updatesCharacteristic = nil
            // The host was running when its values came off the queue, and hosts are
            // only retired between batches.
            cores[updatesSlot]?.applyUpdates(updates, for: characteristic)
            updates.removeAll(keepingCapacity: true)
        }
    }

    /// Ends a host whose core stopped: later work for it is refused with the reason,
    /// work already queued is refused after the core has shut down.
    private func retire(_ core: ControllerCore, slot: Int) {
        let reason = core.stopReason ?? .closed
        var leftovers: [Work] = []
        state.withLock { s in
            s.stopReasons[slot] = reason
            s.items.removeAll { item in
                guard case let .host(itemSlot, _) = item else { return false }
                return itemSlot == slot
            } _: { item in
                if case let .host(_, work) = item { leftovers.append(work) }
            }
        }
        core.shutdown(reason)
        var unapplied = 0
        for work in leftovers {
            if case .update = work { unapplied += 1 } else { work.refuse(reason) }
        }
        // The slots of values that will never be applied go back to the gate, so that a
        // caller is not refused for values the loop dropped.
        if unapplied > 0 { _ = core.updateGate?.settle(applied: unapplied, congested: false) }
    }

    /// With no host left: whether the thread ends now, and what was still queued.
    private func finishIfDone(hadHost: Bool) -> [Item]? {
        state.withLock { s -> [Item]? in
            guard s.released || (endsWithItsHosts && hadHost) else { return nil }
            s.exited = true
            var leftovers: [Item] = []
            s.items.drain { leftovers.append($0) }
            return leftovers
        }
    }

    /// `poll`'s timeout until `deadline`: -1 (none), 0 (past), else milliseconds
    /// rounded up.
    static func timeout(until deadline: ContinuousClock.Instant?) -> Int32 {
        guard let earliest = deadline else { return -1 }
        let remaining = earliest - .now
        return remaining <= .zero ? 0 : milliseconds(remaining)
    }

    static func milliseconds(_ d: Duration) -> Int32 {
        let c = d.components
        let ms = c.seconds * 1000 + (c.attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return Int32(clamping: max(1, ms))
    }
}
