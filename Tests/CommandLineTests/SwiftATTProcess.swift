import Foundation
import Testing
import TestSupport

/// The built `swift-att` binary, run as a subprocess with files for its standard streams
/// (no pipe can fill up and deadlock, however much it prints).
enum SwiftATTProcess {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
        /// Standard output byte for byte (`stdout` is its UTF-8 reading).
        var stdoutBytes: [UInt8] = []

        var stdoutLines: [String] { stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).dropLastIfEmpty }
        var stderrLines: [String] { stderr.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).dropLastIfEmpty }
    }

    /// Where the binary may be: `$SWIFT_ATT_BINARY`, next to the test bundle (the
    /// build directory, whatever `--scratch-path` or configuration), or the package's
    /// `.build/debug` and `.build/release`.
    static var candidates: [URL] {
        var urls: [URL] = []
        if let path = ProcessInfo.processInfo.environment["SWIFT_ATT_BINARY"] {
            urls.append(URL(fileURLWithPath: path))
        }
        urls.append(Bundle.main.bundleURL.appendingPathComponent("swift-att"))
        urls.append(Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("swift-att"))
        if let argv0 = CommandLine.arguments.first {
            urls.append(URL(fileURLWithPath: argv0).deletingLastPathComponent().appendingPathComponent("swift-att"))
        }
        for bundle in Bundle.allBundles where bundle.bundleURL.pathExtension == "xctest" {
            urls.append(bundle.bundleURL.deletingLastPathComponent().appendingPathComponent("swift-att"))
        }
        urls.append(Repository.url(".build/debug/swift-att"))
        urls.append(Repository.url(".build/release/swift-att"))
        return urls
    }

    static let binary: URL? = candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }

    /// The environment a test's swift-att runs in: this process's, with XDG_DATA_HOME
    /// set to `dataHome` so that its default bond file is its own (never the user's,
    /// and never another test's, whose lock it would find held), and `extra` on top.
    static func environment(dataHome: String, _ extra: [String: String] = [:]) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_DATA_HOME"] = dataHome
        environment.merge(extra) { _, new in new }
        return environment
    }

    /// Runs `swift-att arguments…` with `input` on standard input. Awaits the exit
    /// (Process's termination handler) rather than blocking in `waitUntilExit`: a test
    /// waiting for a subprocess holds no thread of Swift's small cooperative pool.
    static func run(_ arguments: [String], input: String = "", environment extra: [String: String] = [:]) async throws -> Result {
        try await run(arguments, bytes: Array(input.utf8), environment: extra)
    }

    /// Runs `swift-att arguments…` with `input` on standard input, byte for byte.
    static func run(_ arguments: [String], bytes input: [UInt8], environment extra: [String: String] = [:]) async throws -> Result {
        guard let binary else {
            throw BinaryNotFound(searched: candidates.map(\.path))
        }
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("swift-att-cli-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let stdinURL = directory.appendingPathComponent("stdin")
        let stdoutURL = directory.appendingPathComponent("stdout")
        let stderrURL = directory.appendingPathComponent("stderr")
        try Data(input).write(to: stdinURL)
        try Data().write(to: stdoutURL)
        try Data().write(to: stderrURL)

        let stdin = try FileHandle(forReadingFrom: stdinURL)
        let stdout = try FileHandle(forWritingTo: stdoutURL)
        let stderr = try FileHandle(forWritingTo: stderrURL)
        defer {
            try? stdin.close()
            try? stdout.close()
            try? stderr.close()
        }
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.environment = environment(dataHome: directory.appendingPathComponent("data").path, extra)
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        let status = try await process.runToExit()
        let stdoutData = try Data(contentsOf: stdoutURL)
        return Result(
            status: status,
            stdout: String(decoding: stdoutData, as: UTF8.self),
            stderr: String(decoding: try Data(contentsOf: stderrURL), as: UTF8.self),
            stdoutBytes: Array(stdoutData))
    }

    struct BinaryNotFound: Error, CustomStringConvertible {
        var searched: [String]
        var description: String {
            "swift-att binary not found; run 'swift build' first (or set SWIFT_ATT_BINARY). Looked in: "
                + searched.joined(separator: ", ")
        }
    }
}

extension Process {
    /// Runs the process and awaits its exit status, holding no thread while it runs (a
    /// test blocked in `waitUntilExit` holds one of the cooperative pool's few).
    func runToExit() async throws -> Int32 {
        try await withCheckedThrowingContinuation { exited in
            terminationHandler = { process in exited.resume(returning: process.terminationStatus) }
            do {
                try run()
            } catch {
                terminationHandler = nil
                exited.resume(throwing: error)
            }
        }
    }
}

extension Array where Element == String {
    fileprivate var dropLastIfEmpty: [String] { last == "" ? Array(dropLast()) : self }
}
