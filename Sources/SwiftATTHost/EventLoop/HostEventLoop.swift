/// A thread that runs hosts' event loops and, as a `TaskExecutor`, the tasks that
/// prefer it.
///
/// A `Central` or `Peripheral` started without one gets a loop thread of its own. Hosts
/// started `on:` the same `HostEventLoop` share its thread (one `poll(2)` over all their
/// transports), and tasks started with `Task(executorPreference: loop)`, or inside
/// `withTaskExecutorPreference(loop)`, run on it too. Then a notification goes from the
/// controller to the code that consumes it, and an `updateValue` from the code that
/// makes it to the controller, without a hand-off between threads: the shape of an
/// application on one asyncio loop (Bumble) or one SwiftNIO event loop, for programs
/// that move many small values or drive several controllers.
///
///     let loop = try HostEventLoop()
///     let central = try await Central.start(transport: spec, on: loop)
///     await withTaskExecutorPreference(loop) {
///         for try await value in try await peer.values(of: characteristic) { … }
///     }
///
/// Work on the loop must not block: a task that waits on a lock or sleeps synchronously
/// there holds up every host on the thread. Opening a transport that waits for its peer
/// (a TCP listener) also holds up the others until it is connected.
///
/// The thread ends once this object is released (tasks that prefer it keep it) and
/// every host on it has closed.
public final class HostEventLoop: TaskExecutor, Sendable {
    let runner: LoopRunner

    /// The name a host's own loop thread has.
    static let hostThreadName = "swift-att host"

    /// Starts the thread, called `name` where `top -H`, `ps -L`, `gdb` and
    /// `/proc/<pid>/task/*/comm` show threads (the kernel keeps its first 15 bytes): a
    /// program with a loop per dongle can tell them apart.
    ///
    /// Fails with `ControllerError.eventLoopUnavailable` when the process is out of
    /// descriptors (for the loop's wake-up pipe) or threads.
    public convenience init(name: String = "swift-att loop") throws(ControllerError) {
        try self.init(endsWithItsHosts: false, name: name)
    }

    /// `endsWithItsHosts`: a host's own loop, whose thread ends when its host stops.
    init(endsWithItsHosts: Bool, name: String = hostThreadName) throws(ControllerError) {
        runner = try LoopRunner(endsWithItsHosts: endsWithItsHosts)
        try runner.start(executor: UnownedTaskExecutor(ordinary: self), name: name)
    }

    deinit {
        runner.release()
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        runner.enqueue(job: UnownedJob(job))
    }
}
