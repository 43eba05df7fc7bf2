import Foundation
import TestSupport

/// A Bumble host (Tests/bench/bumble_peer.py) attached to one of a bench's controllers:
/// an independent implementation to check swift-att's bytes against.
public final class BumblePeer {
    public let process: Process
    public let stdin: Pipe
    public let stdout: Pipe
    private let lines: JSONLineReader

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
        lines = JSONLineReader(stdout, name: "Bumble peer")
        try process.runStoppable()
    }

    /// The next JSON line whose "event" is `event` (earlier lines are skipped), within
    /// `timeout`.
    public func next(_ event: String, timeout: Duration = .seconds(15), where match: @escaping ([String: Any]) -> Bool = { _ in true }) async throws -> [String: Any] {
        try await lines.next(event, timeout: timeout, where: match)
    }

    /// Every JSON line up to and including the next one whose "event" is `event`, in
    /// order, within `timeout`: what a peer reported along the way, none skipped.
    public func collect(until event: String, timeout: Duration = .seconds(20)) async throws -> [[String: Any]] {
        try await lines.collect(until: event, timeout: timeout)
    }

    public func send(_ command: String) {
        PipeWrites.write(command + "\n", to: stdin.fileHandleForWriting.fileDescriptor)
    }

    public func stop() {
        try? stdin.fileHandleForWriting.close()
        process.end()
    }

    deinit { stop() }
}
