#if canImport(Glibc)
import Glibc
#endif

/// Writes to a child process's standard input that survive the child having exited.
///
/// A test often writes to a program that may already be gone (a usage error exits at
/// once). Writing to a pipe nobody reads raises SIGPIPE, whose default action ends the
/// whole test process, every suite with it; Foundation's `FileHandle.write` traps on the
/// EPIPE that follows when the signal is ignored. So the write blocks SIGPIPE on this
/// thread only, takes back the signal it raised, and reports whether every byte went.
/// The process's own disposition is left alone: tests check that the library never
/// raises SIGPIPE, which ignoring it process-wide would hide.
public enum PipeWrites {
    @discardableResult
    public static func write(_ text: String, to fd: Int32) -> Bool {
        write(Array(text.utf8), to: fd)
    }

    @discardableResult
    public static func write(_ bytes: [UInt8], to fd: Int32) -> Bool {
        var pipeSignal = sigset_t()
        sigemptyset(&pipeSignal)
        sigaddset(&pipeSignal, SIGPIPE)
        var previous = sigset_t()
        pthread_sigmask(SIG_BLOCK, &pipeSignal, &previous)
        defer {
            var now = timespec(tv_sec: 0, tv_nsec: 0)
            var pending = sigset_t()
            sigpending(&pending)
            if sigismember(&pending, SIGPIPE) == 1 { _ = sigtimedwait(&pipeSignal, nil, &now) }
            pthread_sigmask(SIG_SETMASK, &previous, nil)
        }
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n > 0 { offset += n; continue }
            if n < 0 && errno == EINTR { continue }
            return false
        }
        return true
    }
}
