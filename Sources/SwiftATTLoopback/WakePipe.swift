#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import SwiftATTTransport

/// The pipe that wakes a host's `poll` when packets wait for it: the host polls the
/// read end, the link writes a byte to the write end.
///
/// Its descriptors are closed when the last holder lets go, not when the host closes
/// its transport. The link picks the pipes to wake under its lock and writes to them
/// after releasing it (`LoopbackLink.update`); a host closing its transport in between
/// must not close, and so free for reuse, a descriptor that write is about to use —
/// the byte would land in whatever file or socket the process opened next.
///
/// It also carries what decides whether a write is needed at all. An event loop that
/// says when it is running (`LoopbackTransport.finishedWaiting`) and when it is about to
/// block (`prepareToWait`) is woken only from the latter: while it runs it will look at
/// its inbox before it next blocks, so a batch handed over meanwhile costs no `write(2)`
/// and no `read(2)`. The two flags are a Dekker pair (each side stores its own, then
/// loads the other's, sequentially consistent): either the link sees that the loop may
/// block and writes, or the loop sees the packets and does not block.
final class WakePipe: Sendable {
    let readEnd: Int32
    let writeEnd: Int32
    /// The host's loop may be blocked in `poll(2)`: packets handed over must write a
    /// byte. True until the loop says it is running, so a host that polls the
    /// descriptor without those calls is woken for every batch.
    let hostMayBeWaiting = Atomic<Bool>(true)
    /// The controller's inbox holds packets (stored under the link's lock as the inbox
    /// changes; loaded by the loop without it).
    let packetsWaiting = Atomic<Bool>(false)
    /// Bytes the link has written or is about to write (after its lock is released),
    /// so that the host reads the pipe only when a byte is due.
    let bytesDue = Atomic<Int>(0)

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
