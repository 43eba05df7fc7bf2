#if canImport(Glibc)
import Glibc
#endif

/// Starts a dedicated POSIX thread for an event loop.
///
/// A host's loop blocks in `poll(2)`; running it on Swift's cooperative pool would take
/// one of its few threads (two on these machines) for good. The loop gets its own.
enum LoopThread {
    final class Body {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    /// Runs `body` on a new detached thread.
    static func start(_ body: @escaping @Sendable () -> Void) {
        let context = Unmanaged.passRetained(Body(body)).toOpaque()
        var thread = pthread_t()
        let rc = pthread_create(&thread, nil, { raw in
            let body = Unmanaged<Body>.fromOpaque(raw!).takeRetainedValue()
            body.run()
            return nil
        }, context)
        precondition(rc == 0, "pthread_create failed: \(rc)")
        pthread_detach(thread)
    }
}
