#if canImport(Glibc)
import Glibc
#endif
import SwiftATTCore
import SwiftATTGATT
import SwiftATTHCI
import Synchronization
import SwiftATTTransport

/// The thread behind a `HostEventLoop`: it blocks in `poll(2)` on its hosts' transports
/// and a wake-up descriptor, runs what other threads hand it in the order they hand it
/// (jobs for a host, `updateValue` values, tasks that prefer the loop), and fires each
/// host's deadlines.
///
/// Each host's protocol state lives in a `HostStack` that only this thread touches; a
/// host is known to the runner by its slot, which `HostLoop` holds.
final class LoopRunner: Sendable {
    typealias Job = @Sendable (HostStack) -> Void
    typealias Refusal = @Sendable (ControllerError) -> Void
    /// Makes a host's stack on the loop thread, around a transport already open.
    typealias Opener = @Sendable () -> HostStack

    /// What a host's callers hand its loop.
    enum Work: Sendable {
        case job(run: Job, refuse: Refusal)
        /// A `Peripheral.updateValue` value its gate admitted: its own case rather than
        /// a closure, so that a stream of values allocates no job per value. It does not
        /// carry its gate: the host's attribute links hold it
        /// (`AttributeLinks.updateGate`), and a value refused before it reaches the
        /// queue gives its slot back in `HostLoop.submitUpdate`.
        case update([UInt8], GATTCharacteristic)
        /// A `Controller.send` or `exchange` command and the task waiting for its answer:
        /// its own case, so that a round trip allocates no job and no callback.
        case command(HCICommandPacket, timeout: Duration, CommandWaiter)

        /// Tells whoever handed it that it will not run: a job's caller, a command's
        /// task. A value needs no word: its slot is given back with the host's other
        /// unapplied values (`retire`), or by `submitUpdate` when the queue refused it.
        func refuse(_ reason: ControllerError) {
            switch self {
            case let .job(_, refuse): refuse(reason)
            case let .command(_, _, waiter): waiter.settle(.failure(reason))
            case .update: break
            }
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
        var stopReasons: [ControllerError?] = []
        /// The `HostEventLoop` was released: end once no host is left.
        var released = false
        /// The thread has ended; nothing more will run.
        var exited = false
        var executor: UnownedTaskExecutor?
    }

    private let state = Mutex(State())
    /// Whether the queue may hold items: set under the lock when one is appended,
    /// cleared under it when the loop takes the queue. The loop thread reads it to skip
    /// the lock when there is nothing to take (most rounds of a command round trip) and
    /// to see whether anything handed over waits (`send`): an item appended before
    /// something the loop thread then saw is seen here (acquiring, against the append's
    /// releasing store), or has been taken already.
    private let mayHoldItems = Atomic<Bool>(false)
    /// The queue's order, told to ThreadSanitizer in a build for it.
    private let handOff = HandOffOrder()
    private let wake: WakeSignal
    /// The loop thread's `pthread_self()`, so that work it hands itself skips the
    /// wake-up pipe (it looks at its queue before it next blocks).
    private let thread = Atomic<UInt>(0)
    /// The loop thread's own state, reached through a pointer: a stored `var` of this
    /// shared class would be checked for exclusive access at run time on every use.
    /// Only the loop thread reads or writes it (`onLoopThread`).
    nonisolated(unsafe) private let own: UnsafeMutablePointer<LoopOwnWork>

    /// Fails when the process has no descriptor left for the wake-up pipe.
    init() throws(ControllerError) {
        wake = try WakeSignal()
        own = .allocate(capacity: 1)
        own.initialize(to: LoopOwnWork())
    }

    deinit {
        own.deinitialize(count: 1)
        own.deallocate()
    }

    /// Whether the caller runs on the loop thread (a task that prefers the loop, run
    /// by it). Internal for the tests that check which path a command took.
    @inline(__always)
    var onLoopThread: Bool {
        thread.load(ordering: .relaxed) == UInt(pthread_self())
    }

    /// Starts the loop thread; fails when the process may start no more threads.
    func start(executor: UnownedTaskExecutor, name: String) throws(ControllerError) {
        state.withLock { $0.executor = executor }
        try LoopThread.start(name: name) { [self] in run(executor: executor) }
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

    /// Runs `open` on the loop thread; the host it returns joins the loop. Once the loop
    /// has ended, calls `refuse` instead.
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

    /// A task the loop thread resumes (a command's answer) or starts is kept in its own
    /// list and run at the start of the next round, without the lock
    /// (`LoopOwnWork`). Nothing queued before it needs to run first: no other thread
    /// can have seen the task resumed before it runs, and whatever the task hands the
    /// loop for a host still goes after what waits in the queue (`send`).
    func enqueue(job: UnownedJob) {
        if onLoopThread { return own.pointee.jobs.append(job) }
        guard append(.task(job), slot: nil) != nil else { return }
        // Only reachable if a task outlived the loop it prefers; running it here beats
        // losing it.
        if let executor = state.withLock({ $0.executor }) { job.runSynchronously(on: executor) }
    }

    /// Sends a command for the host in `slot`, from a task. From a task the loop runs,
    /// with nothing queued before it (in this batch or by another thread since), it is
    /// written at once (`LoopOwnWork.commandsGoDirect`): in the order it would have
    /// been, without a trip through the queue and a round of the loop. Otherwise it is
    /// queued as other work is.
    @inline(__always)
    func send(_ packet: consuming HCICommandPacket, timeout: Duration, waiter: consuming CommandWaiter, forHost slot: Int) {
        if onLoopThread, let stack = own.pointee.directStack(forHost: slot), !mayHoldItems.load(ordering: .acquiring) {
            // Moved into the closure through optionals, as `append` moves its item.
            var moving = Optional((consume packet, consume waiter))
            return stack._withUnsafeGuaranteedRef { stack in
                let (packet, waiter) = moving.take()!
                stack.hci.send(packet, timeout: timeout, waiter: waiter)
            }
        }
        _ = enqueue(.command(packet, timeout: timeout, waiter), forHost: slot)
    }

    /// Only the first item of a batch writes to the wake-up pipe: the loop empties the
    /// pipe before it takes the queue, and takes all of it, so an item added to a queue
    /// that was not empty is already bound to run. A burst of calls (`updateValue` in a
    /// loop) costs one system call, not one each, and none from the loop's own thread.
    private func append(_ item: consuming Item, slot: Int?) -> ControllerError? {
        // Moved into the queue, not copied (`MoveQueue`): the lock's closure takes it
        // out of the optional.
        var item = Optional(item)
        let outcome = state.withLock { s -> (refusal: ControllerError?, first: Bool) in
            if let slot, let reason = s.stopReasons[slot] { return (reason, false) }
            if s.exited { return (.closed, false) }
            s.items.append(item.take()!)
            mayHoldItems.store(true, ordering: .releasing)
            handOff.release()
            return (nil, s.items.count == 1)
        }
        if outcome.first && thread.load(ordering: .relaxed) != UInt(pthread_self()) { wake.signal() }
        return outcome.refusal
    }

    // MARK: The loop

    /// How many times a turn takes the queue again after reading, at most, before it
    /// looks at the transports again.
    static let roundsPerTurn = 8

    private func run(executor: UnownedTaskExecutor) {
        thread.store(UInt(pthread_self()), ordering: .relaxed)
        var hosts = Hosts(wake: wake.fileDescriptor)
        // Exchanged with the queue each turn: both keep their capacity, so taking a
        // batch allocates nothing.
        var ready = MoveQueue<Item>()
        // Exchanged with the tasks the thread hands itself (`LoopOwnWork.jobs`) likewise.
        var readyJobs = MoveQueue<UnownedJob>(capacity: 16)
        // The turn's time, read once right after `poll(2)` returns (and before the first
        // one): each host's turn is timed from it, and the next `poll`'s timeout counted
        // from it, which makes that wait longer than exact by the turn's own duration
        // (microseconds) — the clock is not read again per command, answer and turn end.
        var now = MonotonicInstant.readBootClock()
        while true {
            // A transport that hands packets over in memory says whether some already
            // wait: nothing wrote to its descriptor while the loop was running.
            let pending = hosts.askTransportsBeforeWaiting() || !own.pointee.jobs.isEmpty
                || (mayHoldItems.load(ordering: .acquiring) && state.withLock { !$0.items.isEmpty })
            // Looked at only before a blocking wait; a turn after one expires only the
            // hosts whose deadline it saw has passed (`HostStack.deadlineBeforeWaiting`).
            let lookedAtDeadlines = !pending
            let timeout = pending ? 0 : Self.timeout(until: hosts.lookAtDeadlines(), from: now)
            if !pending {
                hosts.forEachStack { _, stack in stack.beforeSleeping() }
            }
            if poll(&hosts.descriptors, nfds_t(hosts.descriptors.count), timeout) < 0 && errno != EINTR {
                let error = Errno.current
                for record in hosts.records {
                    record.stack.hci.fail(.transport(.systemCall("poll", error, context: record.stack.transport.name)))
                }
            }
            now = .readBootClock()
            hosts.forEachStack { _, stack in
                if stack.transportHandsOverInMemory { stack.transport.finishedWaiting() }
                stack.beginTurn(at: now)
            }
            if hosts.descriptors[0].revents != 0 { wake.drain() }
            // What was handed over before the packets that woke the loop runs before
            // they are read (a listener registered, then the event it waits for).
            runQueue(&ready, &readyJobs, hosts: &hosts, executor: executor)
            hosts.forEachStack { index, stack in
                if hosts.shouldRead(index), stack.isRunning { stack.readTransport() }
            }
            // What the packets just read woke (a task that prefers the loop, resumed with
            // its answer) and what that queued in turn (its next command) run in this
            // turn: a task on the loop costs no `poll(2)` between an answer and its next
            // request. Bounded, so that tasks that keep queueing work cannot keep the
            // transports waiting.
            var rounds = 0
            while rounds < Self.roundsPerTurn, runQueue(&ready, &readyJobs, hosts: &hosts, executor: executor) { rounds += 1 }
            var stopped = false
            hosts.forEachStack { _, stack in
                if !lookedAtDeadlines || stack.deadlineBeforeWaiting.map({ $0 <= now }) ?? false { stack.expire(now: now) }
                stack.endTurn()
                stopped = stopped || !stack.isRunning
            }
            if stopped {
                for record in hosts.records where !record.stack.isRunning { retire(record) }
                hosts.removeStopped()
            }
            if hosts.records.isEmpty, let leftovers = finishIfReleased() {
                for item in leftovers {
                    switch item {
                    case let .host(_, work): work.refuse(.closed)
                    case let .open(_, _, refuse): refuse(.closed)
                    case let .task(job): job.runSynchronously(on: executor)
                    }
                }
                while runOwnJobs(&readyJobs, executor: executor) {}
                return
            }
        }
    }

    /// Runs the tasks the loop thread handed itself, then what the queue holds now (not
    /// what running either adds); false if there was nothing.
    ///
    /// Its look for nothing to run is inlined into the turn, which asks three times a
    /// round trip and finds nothing in two of them.
    @discardableResult
    @inline(__always)
    private func runQueue(_ ready: inout MoveQueue<Item>, _ readyJobs: inout MoveQueue<UnownedJob>,
                          hosts: inout Hosts, executor: UnownedTaskExecutor) -> Bool {
        guard !own.pointee.jobs.isEmpty || mayHoldItems.load(ordering: .acquiring) else { return false }
        return runQueueItems(&ready, &readyJobs, hosts: &hosts, executor: executor)
    }

    private func runQueueItems(_ ready: inout MoveQueue<Item>, _ readyJobs: inout MoveQueue<UnownedJob>,
                               hosts: inout Hosts, executor: UnownedTaskExecutor) -> Bool {
        let ranOwn = runOwnJobs(&readyJobs, executor: executor)
        // Nothing appended since the queue was last taken: no lock. An item being
        // appended now is taken next round, or its wake-up ends the next `poll(2)`.
        guard mayHoldItems.load(ordering: .acquiring) else { return ranOwn }
        state.withLock { s in
            s.items.exchange(with: &ready)
            mayHoldItems.store(false, ordering: .relaxed)
            handOff.acquire()
        }
        guard !ready.isEmpty else { return ranOwn }
        ready.drain { item, isLast in hosts.run(item, isLast: isLast, executor: executor, runner: self) }
        hosts.applyUpdates()
        return true
    }

    /// Runs the task jobs the loop thread handed itself (not those running them adds);
    /// false if there were none.
    private func runOwnJobs(_ ready: inout MoveQueue<UnownedJob>, executor: UnownedTaskExecutor) -> Bool {
        guard !own.pointee.jobs.isEmpty else { return false }
        own.pointee.jobs.exchange(with: &ready)
        // Nothing of the queue's runs in between: a command goes direct if the queue is
        // empty.
        ready.drain { job, _ in runTask(job, last: true, executor: executor) }
        return true
    }

    /// Runs a task job; `last` when no item of its batch comes after it, so that a
    /// command the task sends may be written at once (`send`).
    private func runTask(_ job: UnownedJob, last: Bool, executor: UnownedTaskExecutor) {
        own.pointee.commandsGoDirect = last
        job.runSynchronously(on: executor)
        own.pointee.commandsGoDirect = false
    }

    /// One running host as the loop thread knows it.
    private struct HostRecord {
        let slot: Int
        let stack: HostStack
        /// This turn, its transport said packets already wait in memory.
        var packetsWaiting = false
    }

    /// The hosts the loop runs and the descriptors it polls: the loop thread's own.
    private struct Hosts {
        /// The running hosts, in the order they opened.
        private(set) var records: [HostRecord] = []
        /// Each record's stack, unretained, in `records`' order: what a turn walks
        /// (`forEachStack`). The records own the stacks.
        private var stacks: [Unmanaged<HostStack>] = []
        /// What `poll(2)` is given: the wake-up pipe first, then each record's transport
        /// in `records`' order (`rebuildDescriptors` keeps the two in step).
        var descriptors: [pollfd]
        /// `updateValue` values for one host's characteristic that came off the queue
        /// back to back: applied as one run (`AttributeLinks.applyUpdates`) when another
        /// kind of item, host or characteristic comes up, or the batch ends.
        var updates: [[UInt8]] = []
        var updatesSlot = 0
        var updatesCharacteristic: GATTCharacteristic?
        /// Whether any record's transport hands packets over in memory: if none does,
        /// a turn asks none of them (`askTransportsBeforeWaiting`).
        private var anyHandsOverInMemory = false

        init(wake: Int32) {
            descriptors = [pollfd(fd: wake, events: Int16(POLLIN), revents: 0)]
        }

        /// Whether the transport of `records[index]` has packets for this turn: `poll`
        /// found it readable, or it said some wait in memory.
        func shouldRead(_ index: Int) -> Bool {
            records[index].packetsWaiting || descriptors[index + 1].revents != 0
        }

        /// Calls `body` with each running host's index and stack, in order, the stack
        /// borrowed from its record. Iterating `records` copied the array and each
        /// record out of it: some twenty reference-count operations a turn, a tenth of
        /// the loop's work for a command round trip (callgrind). The records own the
        /// stacks and only the loop thread changes them, never inside a walk.
        @inline(__always)
        func forEachStack(_ body: (Int, HostStack) -> Void) {
            var index = 0
            while index < stacks.count {
                stacks[index]._withUnsafeGuaranteedRef { body(index, $0) }
                index += 1
            }
        }

        /// Calls `body` with the stack of the host in `slot`, borrowed, if it runs; nil
        /// if it does not.
        @inline(__always)
        func withStack<R>(ofSlot slot: Int, _ body: (HostStack) -> R) -> R? {
            guard let index = records.firstIndex(where: { $0.slot == slot }) else { return nil }
            return stacks[index]._withUnsafeGuaranteedRef(body)
        }

        /// The earliest deadline of any host, found without allocating (every turn the
        /// loop may block), each host's noted in its `deadlineBeforeWaiting`.
        @inline(__always)
        func lookAtDeadlines() -> MonotonicInstant? {
            var earliest: MonotonicInstant?
            forEachStack { _, stack in
                let deadline = stack.nextDeadline
                stack.deadlineBeforeWaiting = deadline
                guard let deadline else { return }
                if earliest.map({ deadline < $0 }) ?? true { earliest = deadline }
            }
            return earliest
        }

        /// Asks each transport that hands packets over in memory whether some already
        /// wait (`HCITransport.prepareToWait`), and notes the answer in its record.
        /// True if any does: the loop then polls without blocking.
        @inline(__always)
        mutating func askTransportsBeforeWaiting() -> Bool {
            guard anyHandsOverInMemory else { return false }
            var any = false
            var index = 0
            while index < stacks.count {
                let waiting = stacks[index]._withUnsafeGuaranteedRef { $0.transportHandsOverInMemory && $0.transport.prepareToWait() }
                // Written only when it changes: a write to the array checks that it is
                // unique first, every turn.
                if records[index].packetsWaiting != waiting { records[index].packetsWaiting = waiting }
                any = any || waiting
                index += 1
            }
            return any
        }

        mutating func add(_ record: HostRecord) {
            records.append(record)
            stacks.append(Unmanaged.passUnretained(record.stack))
            anyHandsOverInMemory = anyHandsOverInMemory || record.stack.transportHandsOverInMemory
            descriptors.append(pollfd(fd: record.stack.transport.fileDescriptor, events: Int16(POLLIN), revents: 0))
        }

        /// Drops the hosts that stopped (the runner retired them).
        mutating func removeStopped() {
            records.removeAll { !$0.stack.isRunning }
            stacks = records.map { Unmanaged.passUnretained($0.stack) }
            anyHandsOverInMemory = records.contains { $0.stack.transportHandsOverInMemory }
            rebuildDescriptors()
        }

        private mutating func rebuildDescriptors() {
            descriptors.removeSubrange(1...)
            for record in records {
                descriptors.append(pollfd(fd: record.stack.transport.fileDescriptor, events: Int16(POLLIN), revents: 0))
            }
        }

        /// Runs one queued item. It is consumed, and each case takes its payload over:
        /// a value and its characteristic go from the queue to the host without a
        /// retain (a `switch` on a copy retained each payload, and the copy's end
        /// released it again).
        mutating func run(_ item: consuming Item, isLast: Bool, executor: UnownedTaskExecutor, runner: LoopRunner) {
            switch consume item {
            case let .host(slot, work):
                switch consume work {
                case let .job(run, refuse):
                    applyUpdates()
                    // A host is retired between batches, with its queued work: a job for
                    // a host that is not here cannot come off the queue, but if one did
                    // it is refused rather than lost.
                    if withStack(ofSlot: slot, { run($0) }) == nil { refuse(.closed) }
                case let .command(packet, timeout, waiter):
                    applyUpdates()
                    let sent: Void? = withStack(ofSlot: slot) { stack in
                        stack.hci.send(packet, timeout: timeout, waiter: waiter)
                    }
                    if sent == nil { waiter.settle(.failure(.closed)) }
                case let .update(value, characteristic):
                    // Not looked up per value: the host is found once per run, when the
                    // run is applied.
                    if slot != updatesSlot || characteristic !== updatesCharacteristic {
                        applyUpdates()
                        updatesSlot = slot
                        updatesCharacteristic = characteristic
                    }
                    updates.append(value)
                }
            case let .open(slot, open, _):
                applyUpdates()
                let stack = open()
                runner.own.pointee.adopt(stack, slot: slot)
                add(HostRecord(slot: slot, stack: stack))
            case let .task(job):
                applyUpdates()
                runner.runTask(job, last: isLast, executor: executor)
            }
        }

        /// Applies the values gathered for one characteristic (`updates`), in order,
        /// before whatever came after them on the queue runs.
        mutating func applyUpdates() {
            guard let characteristic = updatesCharacteristic else { return }
            updatesCharacteristic = nil
            // The host was running when its values came off the queue, and hosts are
            // only retired between batches.
            _ = withStack(ofSlot: updatesSlot) { $0.attributes.applyUpdates(updates, for: characteristic) }
            updates.removeAllKeepingCapacity()
        }
    }

    /// Ends a host whose stack stopped: later work for it is refused with the reason,
    /// work already queued is refused after the stack has shut down.
    private func retire(_ record: HostRecord) {
        // No command goes straight to it from here on: the queue refuses them.
        own.pointee.forget(slot: record.slot)
        let stack = record.stack
        let reason = stack.stopReason ?? .closed
        // Shut down (transport closed) before the slot is marked stopped: work refused
        // from then on (a second `close()`) must find the device already released.
        stack.shutdown(reason)
        var leftovers: [Work] = []
        state.withLock { s in
            s.stopReasons[record.slot] = reason
            s.items.removeAll { item in
                guard case let .host(itemSlot, _) = item else { return false }
                return itemSlot == record.slot
            } _: { item in
                if case let .host(_, work) = item { leftovers.append(work) }
            }
            handOff.acquire()
        }
        var unapplied = 0
        for work in leftovers {
            if case .update = work { unapplied += 1 } else { work.refuse(reason) }
        }
        // The slots of values that will never be applied go back to the gate, so that a
        // caller is not refused for values the loop dropped.
        if unapplied > 0 { _ = stack.attributes.updateGate?.settle(applied: unapplied, congested: false) }
    }

    /// With no host left: whether the thread ends now (the loop was released), and
    /// what was still queued.
    private func finishIfReleased() -> [Item]? {
        state.withLock { s -> [Item]? in
            guard s.released else { return nil }
            s.exited = true
            var leftovers: [Item] = []
            s.items.drain { item, _ in leftovers.append(item) }
            handOff.acquire()
            return leftovers
        }
    }

    /// `poll`'s timeout until `deadline`, counted from `now`: -1 (none), 0 (past), else
    /// milliseconds rounded up (a wait never ends before its deadline), at most
    /// `Int32.max`. Integer arithmetic on the instants' nanoseconds, every turn.
    static func timeout(until deadline: MonotonicInstant?, from now: MonotonicInstant) -> Int32 {
        guard let earliest = deadline else { return -1 }
        guard earliest > now else { return 0 }
        let (remaining, overflow) = earliest.nanoseconds.subtractingReportingOverflow(now.nanoseconds)
        if overflow { return .max }
        return Int32(clamping: remaining / 1_000_000 + (remaining % 1_000_000 == 0 ? 0 : 1))
    }
}
