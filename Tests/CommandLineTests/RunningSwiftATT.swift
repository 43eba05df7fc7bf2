#if canImport(Glibc)
import Glibc
#endif
import BenchSupport
import Foundation
import TestSupport

/// A `swift-att <command>` running in the background (`peripheral`, `central`, `bridge`):
/// standard input and output are pipes; a thread reads every line it prints as it comes
/// (so a chatty transfer never blocks on a full pipe), and the waits for a line and for
/// the exit end when it comes, bounded, without looking again every few milliseconds.
final class RunningSwiftATT {
    let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private let errorURL: URL
    /// Its XDG_DATA_HOME (`SwiftATTProcess.environment`), removed at the end.
    private let dataURL: URL
    /// Standard output's lines as they arrive; finished when it closes.
    private let received = ArrivalLog<String>()
    /// Standard output's bytes as read, partial last line included.
    private let chunks = ArrivalLog<[UInt8]>()
    /// The exit status, once the process has ended.
    private let exit = ArrivalLog<Int32>()
    /// How many lines `json(_:after:)` has consumed.
    private var cursor = 0

    /// Runs `swift-att <command> arguments…` (`peripheral` unless told otherwise). With
    /// `errorsInOutput`, standard error goes to the same pipe as standard output, so the
    /// lines of both are read in the order they were written. With `inputFile`, standard
    /// input is that file instead of a pipe (`write` then does nothing).
    init(_ arguments: [String], command: String = "peripheral", errorsInOutput: Bool = false, inputFile: URL? = nil) throws {
        guard let binary = SwiftATTProcess.binary else {
            throw SwiftATTProcess.BinaryNotFound(searched: SwiftATTProcess.candidates.map(\.path))
        }
        errorURL = FileManager.default.temporaryDirectory.appendingPathComponent("swift-att-\(command)-\(UUID().uuidString).stderr")
        dataURL = FileManager.default.temporaryDirectory.appendingPathComponent("swift-att-\(command)-\(UUID().uuidString).data")
        _ = FileManager.default.createFile(atPath: errorURL.path, contents: nil)
        process.executableURL = binary
        process.arguments = [command] + arguments
        process.environment = SwiftATTProcess.environment(dataHome: dataURL.path)
        process.standardInput = try inputFile.map { try FileHandle(forReadingFrom: $0) } ?? input
        process.standardOutput = output
        process.standardError = errorsInOutput ? output : try FileHandle(forWritingTo: errorURL)
        let exit = self.exit
        process.terminationHandler = { process in
            exit.append(process.terminationStatus)
            exit.finish()
        }
        try process.runStoppable()
        let fd = output.fileHandleForReading.fileDescriptor
        let (received, chunks) = (self.received, self.chunks)
        Thread.detachNewThread {
            var chunk = [UInt8](repeating: 0, count: 65536)
            var partial: [UInt8] = []
            while true {
                let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else {
                    chunks.finish()
                    return received.finish()
                }
                chunks.append(Array(chunk[..<n]))
                partial += chunk[..<n]
                while let newline = partial.firstIndex(of: 0x0A) {
                    received.append(String(decoding: partial[..<newline], as: UTF8.self))
                    partial.removeSubrange(...newline)
                }
            }
        }
    }

    /// Every line printed so far.
    var lines: [String] { received.elements }

    /// All it printed so far, byte for byte.
    var bytes: [UInt8] { Array(chunks.elements.joined()) }

    /// All it printed so far, as text.
    var printed: String { String(decoding: chunks.elements.joined(), as: UTF8.self) }

    var standardError: String { (try? String(contentsOf: errorURL, encoding: .utf8)) ?? "" }

    /// For a failed wait's message: the command, its last lines and its standard error.
    private var soFar: String {
        "swift-att \(process.arguments?.first ?? "") output (so far: \(lines.suffix(5)); stderr: \(standardError))"
    }

    /// The first line, among all printed so far and those to come, that `match` accepts.
    @discardableResult
    func line(timeout: Duration = .seconds(15), _ match: (String) -> Bool) async throws -> String {
        try await received.first(soFar, within: timeout) { match($0) ? $0 : nil }.value
    }

    /// The first JSON line whose "event" is `event` and that `match` accepts; with
    /// `after`, only lines after the last one this returned count.
    func json(_ event: String, after: Bool = false, timeout: Duration = .seconds(15),
              where match: ([String: Any]) -> Bool = { _ in true }) async throws -> [String: Any] {
        let found = try await received.first("'\(event)' in \(soFar)", from: after ? cursor : 0, within: timeout) { line -> [String: Any]? in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  object["event"] as? String == event, match(object) else { return nil }
            return object
        }
        cursor = max(cursor, found.position + 1)
        return found.value
    }

    /// The address the human-readable "advertising" line names.
    func advertisedAddress() async throws -> String {
        let line = try await line { $0.contains(": advertising ") }
        guard let range = line.range(of: " as ") else { throw TimedOut(what: "an address in '\(line)'") }
        return String(line[range.upperBound...].prefix { $0 != " " })
    }

    /// Writes `text` to standard input; a process that has already exited loses it.
    func write(_ text: String) {
        PipeWrites.write(text, to: input.fileHandleForWriting.fileDescriptor)
    }

    /// SIGINT, then the exit status once standard output has ended (bounded).
    func interrupt(timeout: Duration = .seconds(10)) async throws -> Int32 {
        kill(process.processIdentifier, SIGINT)
        return try await exitStatus(timeout: timeout, after: "SIGINT")
    }

    /// The exit status once the process has ended by itself: its standard output has
    /// closed (it is exiting) and it has been reaped. Bounded by `timeout` in all.
    func exitStatus(timeout: Duration = .seconds(20), after cause: String = "its end") async throws -> Int32 {
        let deadline = ContinuousClock.now + timeout
        try await received.end("swift-att to exit after \(cause) (stderr: \(standardError))", within: timeout)
        return try await exit.first("swift-att to exit after \(cause) (stderr: \(standardError))",
                                    within: max(.zero, deadline - .now)) { $0 }.value
    }

    /// Ends the process if a test left it running.
    func stop() {
        try? input.fileHandleForWriting.close()
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: errorURL)
        try? FileManager.default.removeItem(at: dataURL)
    }

    deinit { stop() }
}
