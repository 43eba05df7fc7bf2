import BenchSupport
import TestSupport
import Foundation

/// Bumble's host notifying Bumble's host in one Python process over Bumble's LocalLink
/// (Benchmarks/bumble_host_benchmark.py), run from this benchmark so that its figures
/// come from the same run, on the same machine load, as swift-att's.
enum BumbleHostFigures {
    static let script = Repository.url("Benchmarks/bumble_host_benchmark.py")

    /// Whether the bench venv exists (Tests/bench/setup.sh makes it).
    static var available: Bool { FileManager.default.isExecutableFile(atPath: BumbleBench.python.path) }

    /// One sample per (value length, connections) case, from the script's RESULT lines.
    static func measure(lengths: [Int], connections: [Int], count: Int, warmup: Int) throws -> [String: Sample] {
        var arguments = [script.path, "--count", String(count), "--warmup", String(warmup)]
        for l in lengths { arguments += ["--length", String(l)] }
        for c in connections { arguments += ["--connections", String(c)] }
        let output = try PythonRun.run(arguments)
        var samples: [String: Sample] = [:]
        for line in output.split(separator: "\n") where line.hasPrefix("RESULT ") {
            var fields: [String: String] = [:]
            for pair in line.split(separator: " ").dropFirst() {
                let kv = pair.split(separator: "=", maxSplits: 1)
                if kv.count == 2 { fields[String(kv[0])] = String(kv[1]) }
            }
            guard let length = fields["length"], let links = fields["connections"],
                  let n = fields["notifications"].flatMap(Int.init), let wall = fields["wall"].flatMap(Double.init),
                  let cpu = fields["cpu"].flatMap(Double.init) else { continue }
            samples["\(length)/\(links)"] = Sample(delivered: n, wallSeconds: wall, cpuSeconds: cpu)
        }
        return samples
    }
}

/// Runs the bench venv's Python and returns its standard output; standard error goes
/// to a file (never an unread pipe, BENCH.md), quoted in the error on failure.
enum PythonRun {
    struct Failed: Error, CustomStringConvertible {
        let status: Int32
        let log: String
        var description: String { "python exited with \(status): \(log.suffix(1500))" }
    }

    static func run(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = BumbleBench.python
        process.arguments = arguments
        let stdout = Pipe()
        let logURL = FileManager.default.temporaryDirectory.appendingPathComponent("swift-att-bench-python-\(getpid()).log")
        _ = FileManager.default.createFile(atPath: logURL.path, contents: nil)
        process.standardOutput = stdout
        process.standardError = try FileHandle(forWritingTo: logURL)
        try process.run()
        let data = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let log = (try? String(contentsOf: logURL, encoding: .utf8)) ?? ""
        try? FileManager.default.removeItem(at: logURL)
        guard process.terminationStatus == 0 else { throw Failed(status: process.terminationStatus, log: log) }
        return String(decoding: data, as: UTF8.self)
    }
}
