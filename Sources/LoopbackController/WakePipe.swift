#if canImport(Glibc)
import Glibc
#endif
import Transport

/// The pipe that wakes a host's `poll` when packets wait for it: the host polls the
/// read end, the link writes a byte to the write end.
///
/// Its descriptors are closed when the last holder lets go, not when the host closes
/// its transport. The link picks the pipes to wake under its lock and writes to them
/// after releasing it (`LoopbackLink.update`); a host closing its transport in between
/// must not close, and so free for reuse, a descriptor that write is about to use —
/// the byte would land in whatever file or socket the process opened next.
final class WakePipe: Sendable {
    let readEnd: Int32
    let writeEnd: Int32

    init(name: String) throws(TransportError) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw .systemCall("pipe", .current, context: name) }
        for fd in ends {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        readEnd = ends[0]
        writeEnd = ends[1]
    }

    /// Makes the read end readable (a full pipe is readable already).
    func wake() {
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }

    deinit {
        close(readEnd)
        close(writeEnd)
    }
}
