#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// A thread of its own for system calls that block — reading standard input, writing
/// standard output — so that a task waiting on one holds none of the few threads of
/// Swift's cooperative pool (on a two-core machine, two). Calls run one at a time, in
/// the order they were asked for.
///
/// A waiting task that is cancelled returns at once; its call is skipped if it has not
/// started, and its result dropped if it has (a read it made is lost: cancelling is for
/// stopping).
final class BlockingCallThread: Sendable {
    private let queue = CallQueue()
    /// One byte written per call queued; the thread blocks reading it.
    private let wake: (read: Int32, write: Int32)

    init() {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else {
            wake = (-1, -1)
            return
        }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        let (queue, readEnd) = (self.queue, fds[0])
        if InputWatcher.detach({ Self.serve(queue, wake: readEnd) }) {
            wake = (fds[0], fds[1])
        } else {
            close(fds[0])
            close(fds[1])
            wake = (-1, -1)
        }
    }

    /// `call`'s result, computed on the thread; nil when the calling task was cancelled
    /// first. Without a thread (the system would not make one) the call runs here.
    func perform<T: Sendable>(_ call: @escaping @Sendable () -> T) async -> T? {
        guard wake.write >= 0 else { return call() }
        let answer = Answer<T>()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                guard answer.wait(continuation) else { return continuation.resume(returning: nil) }
                queue.calls.withLock { $0.append { if answer.isAwaited { answer.give(call()) } } }
                var byte: UInt8 = 1
                while write(wake.write, &byte, 1) < 0 && errno == EINTR {}
            }
        } onCancel: {
            answer.give(nil)
        }
    }

    private final class CallQueue: Sendable {
        let calls = Mutex<[@Sendable () -> Void]>([])
    }

    private static func serve(_ queue: CallQueue, wake: Int32) {
        var byte: UInt8 = 0
        while true {
            let n = read(wake, &byte, 1)
            if n < 0 && errno == EINTR { continue }
            guard n == 1 else { return }
            let call = queue.calls.withLock { $0.isEmpty ? nil : $0.removeFirst() }
            call?()
        }
    }

    /// Where one call's result meets the task waiting for it: whichever comes first —
    /// the result or the cancellation — resumes the task, once.
    private final class Answer<T: Sendable>: Sendable {
        private enum State {
            case idle
            case waiting(CheckedContinuation<T?, Never>)
            case answered
        }

        private let state = Mutex(State.idle)

        /// Parks the task; false when it was cancelled before it could wait.
        func wait(_ continuation: CheckedContinuation<T?, Never>) -> Bool {
            state.withLock { state in
                guard case .idle = state else { return false }
                state = .waiting(continuation)
                return true
            }
        }

        /// The task still waits for the call.
        var isAwaited: Bool {
            state.withLock { state in
                if case .waiting = state { return true }
                return false
            }
        }

        func give(_ value: T?) {
            let waiting = state.withLock { state -> CheckedContinuation<T?, Never>? in
                defer { state = .answered }
                if case let .waiting(continuation) = state { return continuation }
                return nil
            }
            waiting?.resume(returning: value)
        }
    }
}
