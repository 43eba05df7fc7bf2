import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

extension Process {
    /// Ends a helper process: it is asked to stop (its standard input is already closed
    /// by the caller; then SIGTERM) and, on a thread of its own, killed if it has not
    /// exited within `grace`, then reaped. Returns at once.
    ///
    /// The waiting is not the caller's: a test's teardown runs on Swift's cooperative
    /// pool (two threads on these machines), and a Python process winding down its
    /// asyncio loop held a pool thread for up to the grace period. Seventy benches and
    /// their peers ending close together held both threads for tens of seconds, and every
    /// other test waited (a gdb dump of a run shows a pool thread here, in `usleep`). No
    /// caller reads the process after ending it: each bench has ports of its own.
    /// Ending one process twice (a peer's `stop()`, then its `deinit`) starts one reaper.
    public func end(grace: Duration = .milliseconds(500)) {
        guard isRunning, reaping.withLock({ $0.insert(ObjectIdentifier(self)).inserted }) else { return }
        kill(processIdentifier, SIGTERM)
        let process = ProcessToReap(process: self)
        Thread.detachNewThread {
            process.reap(within: grace)
            reaping.withLock { _ = $0.remove(ObjectIdentifier(process.process)) }
        }
    }
}

/// The processes a reaper thread is ending.
private let reaping = Mutex<Set<ObjectIdentifier>>([])

/// A `Process` handed to the thread that reaps it: used there alone after `end` returns.
private struct ProcessToReap: @unchecked Sendable {
    let process: Process

    func reap(within grace: Duration) {
        let deadline = ContinuousClock.now + grace
        // Process has no timed wait for its exit; look every 10 ms, bounded by the grace
        // period (a teardown, not a race: the process is killed past it either way).
        while process.isRunning && ContinuousClock.now < deadline { usleep(10_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }
}
