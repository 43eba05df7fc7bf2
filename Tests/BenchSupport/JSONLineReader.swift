import Foundation
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The JSON lines a Bumble script prints on its standard output, read as they come, for
/// the tests that drive one (`BumblePeer`, `BumbleClient`).
///
/// Waiting means `poll(2)` on the pipe, which blocks a thread; the waits run on a thread
/// of their own (`awaitBlocking`) so that a test waiting for Bumble holds none of Swift's
/// cooperative pool (two threads on these machines), where it would stall every other
/// test. `@unchecked Sendable`: the buffer is touched only by the one wait in progress;
/// a test awaits each before the next.
public final class JSONLineReader: @unchecked Sendable {
    private let handle: FileHandle
    /// Who prints the lines, for a timeout's message.
    private let name: String
    private var buffer = Data()
    /// The last lines read, for a timeout's message.
    private var recent: [String] = []

    public init(_ pipe: Pipe, name: String) {
        handle = pipe.fileHandleForReading
        self.name = name
    }

    /// The next line whose "event" is `event` and which `match` accepts (earlier lines
    /// are dropped), within `timeout`.
    public func next(_ event: String, timeout: Duration, where match: @escaping ([String: Any]) -> Bool = { _ in true }) async throws -> [String: Any] {
        let deadline = ContinuousClock.now + timeout
        return try await awaitBlocking {
            while true {
                let object = try self.nextObject(waitingFor: event, until: deadline)
                if object["event"] as? String == event, match(object) { return object }
            }
        }
    }

    /// Every line up to and including the next one whose "event" is `event`, in order,
    /// within `timeout`: what the script reported along the way, none skipped.
    public func collect(until event: String, timeout: Duration) async throws -> [[String: Any]] {
        let deadline = ContinuousClock.now + timeout
        return try await awaitBlocking {
            var objects: [[String: Any]] = []
            while true {
                let object = try self.nextObject(waitingFor: event, until: deadline)
                objects.append(object)
                if object["event"] as? String == event { return objects }
            }
        }
    }

    /// The next JSON line, whatever its event, by `deadline` (`event` names what the
    /// caller waits for, for the error). Lines that are not JSON objects are skipped.
    private func nextObject(waitingFor event: String, until deadline: ContinuousClock.Instant) throws -> [String: Any] {
        while true {
            while let newline = buffer.firstIndex(of: 0x0A) {
                let line = buffer[buffer.startIndex..<newline]
                buffer.removeSubrange(buffer.startIndex...newline)
                recent.append(String(decoding: line, as: UTF8.self))
                if recent.count > 12 { recent.removeFirst() }
                if let object = try? JSONSerialization.jsonObject(with: line) as? [String: Any] { return object }
            }
            let remaining = deadline - .now
            guard remaining > .zero else {
                throw TimedOut(what: "\(name) event '\(event)' (its last lines: \(recent.joined(separator: " ")))")
            }
            var pfd = pollfd(fd: handle.fileDescriptor, events: Int16(POLLIN), revents: 0)
            let ms = Int32(max(1, remaining.components.seconds * 1000 + remaining.components.attoseconds / 1_000_000_000_000_000))
            if poll(&pfd, 1, ms) > 0 {
                let chunk = handle.availableData
                if chunk.isEmpty { throw TimedOut(what: "\(name) event '\(event)' (it exited)") }
                buffer.append(chunk)
            }
        }
    }
}

/// Runs `body`, which blocks, on a new thread and awaits its result, so that no thread
/// of the cooperative pool waits with it.
public func awaitBlocking<T>(_ body: @escaping () throws -> T) async throws -> T {
    let work = Unchecked(body)
    let outcome: Unchecked<Result<T, any Error>> = await withCheckedContinuation { done in
        Thread.detachNewThread { done.resume(returning: Unchecked(Result { try work.value() })) }
    }
    return try outcome.value.get()
}

/// Carries a value that is not `Sendable` to the thread `awaitBlocking` starts and back:
/// each side touches it only while the other waits.
private struct Unchecked<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
