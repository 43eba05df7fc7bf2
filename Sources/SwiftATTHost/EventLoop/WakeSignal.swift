#if canImport(Glibc)
import Glibc
#endif
import SwiftATTTransport

/// A self-pipe that wakes an event loop out of `poll` when another thread has work for
/// it. Both ends are non-blocking: a full pipe already means "wake up".
final class WakeSignal: Sendable {
    /// The end the loop polls.
    let fileDescriptor: Int32
    private let writeEnd: Int32

    /// Fails when the process has no descriptors left. `makePipe` is `pipe(2)` but in
    /// tests, which make it fail.
    init(makePipe: (UnsafeMutablePointer<Int32>) -> Int32 = { pipe($0) }) throws(ControllerError) {
        var ends: [Int32] = [-1, -1]
        guard makePipe(&ends) == 0 else { throw .eventLoopUnavailable("pipe", .current) }
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
        var buffer = (UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0))
        while withUnsafeMutableBytes(of: &buffer, { read(fileDescriptor, $0.baseAddress, $0.count) }) > 0 {}
    }
}
