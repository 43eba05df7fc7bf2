import Foundation
#if canImport(Glibc)
import Glibc
#endif

extension Process {
    /// Ends a helper process within about `grace`: it is asked to stop (its standard input
    /// is already closed by the caller; then SIGTERM), and killed if it has not exited when
    /// the grace period is over. A test's teardown never waits on a Python process that
    /// is slow to wind down its asyncio loop.
    public func end(grace: Duration = .milliseconds(500)) {
        let deadline = ContinuousClock.now + grace
        if isRunning { kill(processIdentifier, SIGTERM) }
        // Process has no timed wait for its exit; look every 10 ms, bounded by the grace
        // period (a teardown, not a race: the process is killed past it either way).
        while isRunning && ContinuousClock.now < deadline { usleep(10_000) }
        if isRunning { kill(processIdentifier, SIGKILL) }
        waitUntilExit()
    }
}
