#if canImport(Glibc)
import Glibc
#endif
import SwiftATTTransport

/// Starts a dedicated POSIX thread for an event loop.
///
/// A host's loop blocks in `poll(2)`; running it on Swift's cooperative pool would take
/// one of its few threads (two on these machines) for good. The loop gets its own.
enum LoopThread {
    final class Body {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    /// How a thread is created: `pthread_create(3)` but in tests, which make it fail.
    typealias Create = (
        UnsafeMutablePointer<pthread_t>, @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer?,
        UnsafeMutableRawPointer
    ) -> Int32

    /// Runs `body` on a new detached thread called `name`. Fails, running nothing, when
    /// the process may start no more threads.
    static func start(
        name: String, create: Create = { pthread_create($0, nil, $1, $2) }, _ body: @escaping @Sendable () -> Void
    ) throws(ControllerError) {
        let context = Unmanaged.passRetained(Body {
            setName(name)
            body()
        })
        var thread = pthread_t()
        let rc = create(&thread, { raw in
            let body = Unmanaged<Body>.fromOpaque(raw!).takeRetainedValue()
            body.run()
            return nil
        }, context.toOpaque())
        guard rc == 0 else {
            context.release()
            throw .eventLoopUnavailable("pthread_create", Errno(rc))
        }
        pthread_detach(thread)
    }

    /// Names the calling thread, as `top -H`, `gdb` and `/proc/<pid>/task/*/comm` show
    /// it: the kernel keeps 15 bytes. `pthread_setname_np` and `prctl` are not visible
    /// through Swift's Glibc module (the one is not declared there, the other is
    /// variadic), so this writes the name where they would: the thread's own `comm`.
    /// Best effort: a kernel without `/proc` leaves the thread unnamed.
    static func setName(_ name: String) {
        var bytes = Array(name.utf8.prefix(15))
        // Cut on a character boundary, not inside a multi-byte one.
        while String(validating: bytes, as: UTF8.self) == nil { bytes.removeLast() }
        let fd = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { return }
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
    }
}
