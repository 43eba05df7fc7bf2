import Synchronization

/// A thread that runs hosts' event loops and, as a `TaskExecutor`, the tasks that
/// prefer it.
///
/// A `Central`, `Peripheral` or `Controller` started without `on:` runs on the
/// process's loop, `HostEventLoop.shared`; hosts started `on:` the same loop share its
/// thread (one `poll(2)` over all their transports). Tasks started with
/// `Task(executorPreference: loop)`, or inside `withTaskExecutorPreference(loop)`, run on
/// it too: then a command and its answer, a notification and the code that consumes
/// it, an `updateValue` and the controller, meet on one thread without a hand-off —
/// the shape of an application on one asyncio loop (Bumble) or one SwiftNIO event loop.
/// Every `swift-att` command runs its work that way.
///
///     let central = try await Central.start(transport: spec)
///     await withTaskExecutorPreference(central.eventLoop) {
///         for try await value in try await peer.values(of: characteristic) { … }
///     }
///
/// A program that drives several controllers and wants a core for each gives each its
/// own `HostEventLoop()`.
///
/// Work on the loop must not block: a task that waits on a lock, sleeps synchronously or
/// reads a terminal there holds up every host on the thread. Opening a transport (a TCP
/// listener waiting for its peer, an adapter the kernel is still setting up) happens on
/// a thread of its own and holds up nobody.
///
/// A loop made with `init(name:)` ends its thread once the object is released (tasks
/// that prefer it keep it) and every host on it has closed; the shared loop's thread
/// lasts as long as the process, idle in `poll(2)` when no host runs.
public final class HostEventLoop: TaskExecutor, Sendable {
    let runner: LoopRunner

    /// The name the shared loop's thread has.
    static let sharedThreadName = "swift-att host"

    /// The process's loop, started on first use: where hosts run when they are started
    /// without `on:`.
    ///
    /// Fails with `ControllerError.eventLoopUnavailable` when the process is out of
    /// descriptors or threads (a later call tries again).
    public static var shared: HostEventLoop {
        get throws(ControllerError) {
            if let loop = sharedLoop.load() { return loop }
            return try startingShared.withLock { _ throws(ControllerError) -> HostEventLoop in
                if let loop = sharedLoop.load() { return loop }
                return sharedLoop.storeIfNil(try HostEventLoop(name: sharedThreadName))
            }
        }
    }

    /// Read without a lock once set. Its store and load order the loop's making before
    /// its use on another thread, as a Mutex would, but where ThreadSanitizer sees it (it
    /// misses a contended Mutex: a loop made under one can look raced to it).
    private static let sharedLoop = AtomicLazyReference<HostEventLoop>()
    /// Held while the shared loop is made, so that two first callers start one thread.
    private static let startingShared = Mutex(())

    /// Starts the thread, called `name` where `top -H`, `ps -L`, `gdb` and
    /// `/proc/<pid>/task/*/comm` show threads (the kernel keeps its first 15 bytes): a
    /// program with a loop per dongle can tell them apart.
    ///
    /// Fails with `ControllerError.eventLoopUnavailable` when the process is out of
    /// descriptors (for the loop's wake-up pipe) or threads.
    public init(name: String = "swift-att loop") throws(ControllerError) {
        runner = try LoopRunner()
        try runner.start(executor: UnownedTaskExecutor(ordinary: self), name: name)
    }

    deinit {
        runner.release()
    }

    /// Runs `job` on the loop's thread: what makes the loop a task executor.
    public func enqueue(_ job: consuming ExecutorJob) {
        runner.enqueue(job: UnownedJob(job))
    }
}
