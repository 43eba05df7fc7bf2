#if canImport(Glibc)
import Glibc
#endif

/// A self-pipe that wakes an event loop out of `poll` when another thread has work for
/// it. Both ends are non-blocking: a full pipe already means "wake up".
final class WakeSignal: Sendable {
    /// The end the loop polls.
    let fileDescriptor: Int32
    private let writeEnd: Int32

    init() {
        var ends: [Int32] = [-1, -1]
        let rc = pipe(&ends)
        precondition(rc == 0, "pipe failed: \(errno)")
        for fd in ends {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        fileDescriptor = ends[0]
        writeEnd = ends[1]
    }

    deinit {
        close(fileDescriptor)
        close(writeEnd)
    }

    /// Makes the read end readable.
    func signal() {
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }

    /// Empties the pipe after a wake-up.
    func drain() {
        var buffer = [UInt8](repeating: 0, count: 64)
        while buffer.withUnsafeMutableBytes({ read(fileDescriptor, $0.baseAddress!, 64) }) > 0 {}
    }
}
