#if canImport(Glibc)
import Glibc
#endif

/// The few descriptor operations transports share: poll with a timeout, full writes,
/// reads that report EOF. Every failure keeps its errno.
enum FileDescriptor {
    /// Waits until `fd` is readable; `false` when `timeout` passed first.
    static func waitReadable(_ fd: Int32, timeout: Duration?, context: String) throws(TransportError) -> Bool {
        try wait(fd, events: Int16(POLLIN), timeout: timeout, context: context)
    }

    /// Waits until `fd` is writable; `false` when `timeout` passed first. A hang-up with
    /// no room to write is `.closed`: some drivers (virtio-serial with no host side) keep
    /// answering EAGAIN while `poll` reports POLLHUP at once, which would otherwise spin.
    static func waitWritable(_ fd: Int32, timeout: Duration?, context: String) throws(TransportError) -> Bool {
        var pfd = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
        let ms = timeout.map { milliseconds($0) } ?? -1
        while true {
            let n = poll(&pfd, 1, ms)
            if n > 0 {
                if pfd.revents & Int16(POLLOUT) == 0 && pfd.revents & Int16(POLLHUP | POLLERR) != 0 { throw .closed(context) }
                return true
            }
            if n == 0 { return false }
            if errno == EINTR { continue }
            throw .systemCall("poll", .current, context: context)
        }
    }

    private static func wait(_ fd: Int32, events: Int16, timeout: Duration?, context: String) throws(TransportError) -> Bool {
        var pfd = pollfd(fd: fd, events: events, revents: 0)
        let ms = timeout.map { milliseconds($0) } ?? -1
        while true {
            let n = poll(&pfd, 1, ms)
            if n > 0 { return true }  // readable, or HUP/ERR: the read reports which
            if n == 0 { return false }
            if errno == EINTR { continue }
            throw .systemCall("poll", .current, context: context)
        }
    }

    /// Rounds up so a short positive timeout does not become a busy `poll(…, 0)`.
    static func milliseconds(_ d: Duration) -> Int32 {
        let c = d.components
        let ms = c.seconds * 1000 + (c.attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return Int32(clamping: max(0, ms))
    }

    /// Writes all of `bytes`, waiting for writability; EPIPE/ECONNRESET become `.closed`.
    ///
    /// On a socket (`isSocket`) the bytes go with `MSG_NOSIGNAL`: a peer that has closed
    /// its end must end the transport with `.closed`, not raise SIGPIPE, whose default
    /// action kills the application that links us. (A pipe or tty cannot take that flag;
    /// those rarely break, and an application that writes to them already decides.)
    static func writeAll(_ fd: Int32, _ bytes: [UInt8], isSocket: Bool = false, timeout: Duration, context: String) throws(TransportError) {
        let failure = bytes.withUnsafeBytes { buffer -> TransportError? in
            do throws(TransportError) {
                try writeAll(fd, buffer, isSocket: isSocket, timeout: timeout, context: context)
                return nil
            } catch {
                return error
            }
        }
        if let failure { throw failure }
    }

    static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, isSocket: Bool = false, timeout: Duration,
                         context: String) throws(TransportError) {
        var offset = 0
        while offset < bytes.count {
            let n = isSocket ? Glibc.send(fd, bytes.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
                             : write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if n > 0 { offset += n; continue }
            let e = errno
            if n < 0 && e == EINTR { continue }
            if n < 0 && (e == EAGAIN || e == EWOULDBLOCK) {
                guard try waitWritable(fd, timeout: timeout, context: context) else { throw .timedOut(context) }
                continue
            }
            if e == EPIPE || e == ECONNRESET || e == ENODEV || e == ENXIO { throw .closed(context) }
            throw .systemCall("write", Errno(e), context: context)
        }
    }

    /// Reads up to `count` bytes without blocking: the count read, 0 when nothing is
    /// available now; throws `.closed` at end of file.
    static func readAvailable(_ fd: Int32, into buffer: inout [UInt8], context: String) throws(TransportError) -> Int {
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
            if n > 0 { return n }
            if n == 0 { throw .closed(context) }
            let e = errno
            if e == EINTR { continue }
            if e == EAGAIN || e == EWOULDBLOCK { return 0 }
            if e == ECONNRESET || e == ENODEV || e == ENXIO || e == EIO { throw .closed(context) }
            throw .systemCall("read", Errno(e), context: context)
        }
    }

    /// Whether `fd` is a socket, so writes to it can refuse SIGPIPE.
    static func isSocket(_ fd: Int32) -> Bool {
        var status = stat()
        return fstat(fd, &status) == 0 && status.st_mode & S_IFMT == S_IFSOCK
    }

    static func setNonBlocking(_ fd: Int32, context: String) throws(TransportError) {
        let flags = fcntl(fd, F_GETFL)
        guard flags >= 0, fcntl(fd, F_SETFL, flags | O_NONBLOCK) == 0 else {
            throw .systemCall("fcntl(O_NONBLOCK)", .current, context: context)
        }
    }
}
