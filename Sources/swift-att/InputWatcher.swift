#if canImport(Glibc)
import Glibc
#endif

/// What a command that runs until stopped (peripheral, central, bridge) hears from
/// outside the radio.
enum WatchedInput: Sendable {
    /// SIGINT or SIGTERM arrived.
    case signal(Int32)
    /// One line of standard input, newline (and a trailing CR) removed.
    case line(String)
    /// Standard input ended.
    case endOfInput
}

/// The self-pipe SIGINT and SIGTERM write to: a signal handler may do little more than
/// `write(2)`, so the handler writes the signal number and a thread reads it.
let terminationPipe: (read: Int32, write: Int32) = {
    var fds: [Int32] = [-1, -1]
    guard pipe(&fds) == 0 else { return (-1, -1) }
    for fd in fds {
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }
    return (fds[0], fds[1])
}()

/// Signals and standard input, watched by one thread that blocks in `poll(2)`, so the
/// command's loop hears them as values (as the host's loop does with its transport).
enum InputWatcher {
    /// Routes SIGINT and SIGTERM to `terminationPipe` from now on. False when the pipe
    /// could not be made (the default actions then stay).
    static func installSignalHandlers() -> Bool {
        guard terminationPipe.write >= 0 else { return false }
        for signo in [SIGINT, SIGTERM] {
            signal(signo) { signo in
                var byte = UInt8(truncatingIfNeeded: signo)
                _ = write(terminationPipe.write, &byte, 1)
            }
        }
        return true
    }

    final class Body: Sendable {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    /// Starts the watching thread; it calls `deliver` with each signal and, when
    /// `readingLines`, each line of standard input. It lives as long as the process.
    static func start(readingLines: Bool, _ deliver: @escaping @Sendable (WatchedInput) -> Void) {
        detach { watch(readingLines: readingLines, deliver) }
    }

    /// Runs `run` on a new thread of its own, which nobody joins. False when the
    /// system would not make one.
    @discardableResult
    static func detach(_ run: @escaping @Sendable () -> Void) -> Bool {
        let body = Body(run)
        var thread = pthread_t()
        let raw = Unmanaged.passRetained(body).toOpaque()
        let rc = pthread_create(&thread, nil, { raw in
            Unmanaged<Body>.fromOpaque(raw!).takeRetainedValue().run()
            return nil
        }, raw)
        guard rc == 0 else {
            Unmanaged<Body>.fromOpaque(raw).release()
            return false
        }
        pthread_detach(thread)
        return true
    }

    private static func watch(readingLines: Bool, _ deliver: @Sendable (WatchedInput) -> Void) {
        var fds = [pollfd(fd: terminationPipe.read, events: Int16(POLLIN), revents: 0)]
        if readingLines { fds.append(pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)) }
        var pending: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = poll(&fds, nfds_t(fds.count), -1)
            if n < 0 {
                if errno == EINTR { continue }
                return
            }
            if fds[0].revents != 0 {
                var byte: UInt8 = 0
                while read(terminationPipe.read, &byte, 1) == 1 { deliver(.signal(Int32(byte))) }
            }
            guard fds.count > 1, fds[1].revents != 0 else { continue }
            let count = buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
            if count < 0 && (errno == EINTR || errno == EAGAIN) { continue }
            if count <= 0 {
                if !pending.isEmpty { deliver(.line(line(pending))) }
                deliver(.endOfInput)
                fds.removeLast()
                continue
            }
            pending.append(contentsOf: buffer[..<count])
            while let newline = pending.firstIndex(of: 0x0A) {
                deliver(.line(line(pending[..<newline])))
                pending.removeSubrange(...newline)
            }
        }
    }

    private static func line(_ bytes: some Collection<UInt8>) -> String {
        var bytes = Array(bytes)
        if bytes.last == 0x0D { bytes.removeLast() }
        return String(decoding: bytes, as: UTF8.self)
    }
}
