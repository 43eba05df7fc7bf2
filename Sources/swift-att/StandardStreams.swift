#if canImport(Glibc)
import Glibc
#endif
import SwiftATTTransport

/// Standard input read and standard output written as raw bytes, each on a thread of
/// its own (`BlockingCallThread`): what `l2cap` pipes through a channel. A slow reader
/// of standard output holds up only the writes, a terminal that types nothing only the
/// reads, and neither holds a thread of the cooperative pool.
final class StandardStreams: Sendable {
    enum Read: Sendable, Equatable {
        /// What one read(2) returned: as much as was there, never more than asked.
        case bytes([UInt8])
        case end
        case failed(Errno)
        /// The waiting task was cancelled.
        case cancelled
    }

    enum Written: Sendable, Equatable {
        case done
        case failed(Errno)
        case cancelled
    }

    private let input = BlockingCallThread()
    private let output = BlockingCallThread()

    /// The next bytes standard input has, at most `count` (one read: a terminal's line,
    /// a pipe's chunk, a file's next `count` bytes).
    func read(upTo count: Int) async -> Read {
        await input.perform { Self.readNow(upTo: count) } ?? .cancelled
    }

    /// Writes all of `bytes` to standard output.
    func write(_ bytes: [UInt8]) async -> Written {
        await output.perform { Self.writeNow(bytes) } ?? .cancelled
    }

    private static func readNow(upTo count: Int) -> Read {
        var buffer = [UInt8](repeating: 0, count: max(count, 1))
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(STDIN_FILENO, $0.baseAddress, $0.count) }
            if n > 0 {
                buffer.removeLast(buffer.count - n)
                return .bytes(buffer)
            }
            if n == 0 { return .end }
            switch errno {
            case EINTR: continue
            case EAGAIN: waitUntilReady(STDIN_FILENO, for: POLLIN)  // a descriptor left non-blocking
            case let code: return .failed(Errno(code))
            }
        }
    }

    private static func writeNow(_ bytes: [UInt8]) -> Written {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(STDOUT_FILENO, $0.baseAddress! + offset, $0.count - offset) }
            if n >= 0 {
                offset += n
                continue
            }
            switch errno {
            case EINTR: continue
            case EAGAIN: waitUntilReady(STDOUT_FILENO, for: POLLOUT)
            case let code: return .failed(Errno(code))
            }
        }
        return .done
    }

    private static func waitUntilReady(_ fd: Int32, for events: Int32) {
        var descriptor = pollfd(fd: fd, events: Int16(events), revents: 0)
        _ = poll(&descriptor, 1, -1)
    }
}
