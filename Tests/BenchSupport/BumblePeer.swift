import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A Bumble host (Tests/bench/bumble_peer.py) attached to one of a bench's controllers:
/// an independent implementation to check swift-att's bytes against.
public final class BumblePeer {
    public let process: Process
    public let stdin: Pipe
    public let stdout: Pipe
    private var buffer = Data()
    /// The last lines read, for a timeout's message.
    private var recent: [String] = []

    /// Runs `script` (a file in Tests/bench: bumble_peer.py by default, or
    /// bumble_server.py) with the controller's port, `address` and `arguments`.
    public init(bench: BumbleBench, controller index: Int, address: String, arguments: [String], script: String = "bumble_peer.py") throws {
        process = Process()
        process.executableURL = BumbleBench.python
        process.arguments = [BumbleBench.benchDirectory.appendingPathComponent(script).path,
                             "--port", String(bench.ports[index]), "--address", address] + arguments
        stdin = Pipe()
        stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = try FileHandle(forWritingTo: bench.logURL)
        try process.run()
    }

    /// The next JSON line whose "event" is `event` (earlier lines are skipped), within
    /// `timeout`.
    public func next(_ event: String, timeout: Duration = .seconds(15), where match: ([String: Any]) -> Bool = { _ in true }) throws -> [String: Any] {
        let deadline = ContinuousClock.now + timeout
        while true {
            let object = try nextObject(waitingFor: event, until: deadline)
            if object["event"] as? String == event, match(object) { return object }
        }
    }

    /// Every JSON line up to and including the next one whose "event" is `event`, in
    /// order, within `timeout`: what a peer reported along the way, none skipped.
    public func collect(until event: String, timeout: Duration = .seconds(20)) throws -> [[String: Any]] {
        let deadline = ContinuousClock.now + timeout
        var objects: [[String: Any]] = []
        while true {
            let object = try nextObject(waitingFor: event, until: deadline)
            objects.append(object)
            if object["event"] as? String == event { return objects }
        }
    }

    /// The next JSON line, whatever its event, by `deadline` (`event` names what the
    /// caller waits for, for the error).
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
                throw TimedOut(what: "Bumble peer event '\(event)' (its last lines: \(recent.joined(separator: " ")))")
            }
            var pfd = pollfd(fd: stdout.fileHandleForReading.fileDescriptor, events: Int16(POLLIN), revents: 0)
            let ms = Int32(max(1, remaining.components.seconds * 1000 + remaining.components.attoseconds / 1_000_000_000_000_000))
            if poll(&pfd, 1, ms) > 0 {
                let chunk = stdout.fileHandleForReading.availableData
                if chunk.isEmpty { throw TimedOut(what: "Bumble peer event '\(event)' (the peer exited)") }
                buffer.append(chunk)
            }
        }
    }

    public func send(_ command: String) {
        stdin.fileHandleForWriting.write(Data((command + "\n").utf8))
    }

    public func stop() {
        try? stdin.fileHandleForWriting.close()
        process.end()
    }

    deinit { stop() }
}
