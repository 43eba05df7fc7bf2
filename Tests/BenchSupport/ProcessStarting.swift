import Foundation
#if canImport(Glibc)
import Glibc
#endif

extension Process {
    /// Starts the process with SIGINT and SIGTERM unblocked in it, so `end()`,
    /// `terminate()` and a test's `kill` reach it.
    ///
    /// A child starts with the signal mask of the thread that spawned it, and Foundation's
    /// `Process` leaves it as it is. Tests run on Swift's cooperative pool, whose threads
    /// (libdispatch's workers) block nearly every signal: a helper a test started ignored
    /// SIGTERM, and a stop that then waited for its exit waited for the helper's own
    /// time limit (240 s for bumble_client.py) on a pool thread. Two such stops at once
    /// held both pool threads of these machines, and the CI test phases in which no test
    /// finished for some 200 s were that.
    ///
    /// The two signals are unblocked on the calling thread only while the child is
    /// spawned. One sent to the test process in that window meets its default action and
    /// ends the process, as it would on the main thread at any other time.
    public func runStoppable() throws {
        var stopping = sigset_t()
        sigemptyset(&stopping)
        sigaddset(&stopping, SIGINT)
        sigaddset(&stopping, SIGTERM)
        var previous = sigset_t()
        pthread_sigmask(SIG_UNBLOCK, &stopping, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        try run()
    }
}
