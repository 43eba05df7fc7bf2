import Foundation
import Synchronization
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Bumble's virtual controllers, linked on one virtual radio, started for one test and
/// stopped by it (Tests/bench/controllers.py). A fresh process per test: Bumble's
/// controllers keep their state across HCI Reset and across TCP clients (BENCH.md).
public final class BumbleBench {
    public static let benchDirectory = Repository.url("Tests/bench")
    public static var python: URL { benchDirectory.appendingPathComponent(".venv/bin/python") }

    public let process: Process
    public let stdin: Pipe
    /// The controllers' TCP ports, in order.
    public let ports: [UInt16]
    /// `--transport` strings for each controller.
    public var transports: [String] { ports.map { "tcp:127.0.0.1:\($0)" } }
    public let logURL: URL

    public enum Failure: Error, CustomStringConvertible {
        case setupFailed(String)
        case notReady(String)
        public var description: String {
            switch self {
            case let .setupFailed(s): return "bench setup failed: \(s)"
            case let .notReady(s): return "Bumble controllers did not start: \(s)"
            }
        }
    }

    /// Makes sure Bumble is installed in the bench's virtual environment (idempotent).
    /// Looks for the package's files rather than importing it: every bench of a run calls
    /// this, and a Python started to import Bumble blocks a thread of Swift's pool for a
    /// second or more on a loaded machine.
    public static func ensureInstalled() throws {
        if FileManager.default.isExecutableFile(atPath: python.path), isBumbleInVirtualEnvironment {
            return
        }
        let status = try runQuiet("/bin/bash", [benchDirectory.appendingPathComponent("setup.sh").path])
        guard status == 0 else { throw Failure.setupFailed("Tests/bench/setup.sh exited with \(status)") }
    }

    /// `.venv/lib/python3.*/site-packages/bumble/__init__.py` exists.
    static var isBumbleInVirtualEnvironment: Bool {
        let lib = benchDirectory.appendingPathComponent(".venv/lib")
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: lib.path)) ?? []
        return versions.contains { version in
            FileManager.default.fileExists(atPath: lib.appendingPathComponent("\(version)/site-packages/bumble/__init__.py").path)
        }
    }

    @discardableResult
    public static func runQuiet(_ path: String, _ arguments: [String]) throws -> Int32 {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: path)
        p.arguments = arguments
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.runStoppable()
        p.waitUntilExit()
        return p.terminationStatus
    }

    /// Ports free now, handed out to no other test of this process (`FreePorts`).
    public static func freePorts(_ count: Int) -> [UInt16] {
        FreePorts.take(count)
    }

    /// Starts `count` linked controllers and waits until they listen.
    ///
    /// Asynchronous so that the wait holds no thread: Swift Testing starts every test at
    /// once, and the suites start some seventy benches. Each one's Python takes a second
    /// or more to listen on a loaded machine; waiting for it in `poll(2)` blocked a
    /// thread of the cooperative pool (two on these machines) for that long, and the
    /// benches starting together held both for minutes: every other test stopped, and
    /// timed out.
    public init(controllers count: Int, leACLLength: Int? = nil) async throws {
        try Self.ensureInstalled()
        ports = Self.freePorts(count)
        logURL = FileManager.default.temporaryDirectory.appendingPathComponent("swift-att-bench-\(ports[0]).log")
        _ = FileManager.default.createFile(atPath: logURL.path, contents: nil)
        process = Process()
        process.executableURL = Self.python
        var arguments = [Self.benchDirectory.appendingPathComponent("controllers.py").path,
                         "--ports", ports.map(String.init).joined(separator: ","), "--duration", "300"]
        if let leACLLength { arguments += ["--le-acl-length", String(leACLLength)] }
        process.arguments = arguments
        stdin = Pipe()
        let stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = try FileHandle(forWritingTo: logURL)
        try process.runStoppable()
        // Wait (bounded) for the READY line.
        let deadline = ContinuousClock.now + .seconds(30)
        var output = Data()
        let handle = stdout.fileHandleForReading
        while !String(decoding: output, as: UTF8.self).contains("\n") {
            guard ContinuousClock.now < deadline, process.isRunning else {
                stop()
                let log = (try? String(contentsOf: logURL, encoding: .utf8)) ?? ""
                throw Failure.notReady(String(decoding: output, as: UTF8.self) + log.suffix(2000))
            }
            var pfd = pollfd(fd: handle.fileDescriptor, events: Int16(POLLIN), revents: 0)
            if poll(&pfd, 1, 0) > 0 {
                output.append(handle.availableData)
            } else {
                try await Task.sleep(for: .milliseconds(10))
            }
        }
        guard String(decoding: output, as: UTF8.self).hasPrefix("READY") else {
            stop()
            throw Failure.notReady(String(decoding: output, as: UTF8.self))
        }
    }

    /// Ends the controllers (closing stdin ends them; SIGTERM if they linger).
    public func stop() {
        try? stdin.fileHandleForWriting.close()
        process.end()
    }

    deinit { stop() }
}
