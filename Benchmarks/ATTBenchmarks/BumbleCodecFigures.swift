import BenchSupport
import TestSupport
import Foundation

/// Bumble's ATT codec (`ATT_PDU.from_bytes`, `bytes(pdu)`) timed on the same PDU mix by
/// Benchmarks/bumble_att_benchmark.py from the bench venv, in the same run as
/// swift-att's figures, so the ratio compares like with like on one machine load.
enum BumbleCodecFigures {
    struct Figure {
        var decodeNanoseconds: Double
        var encodeNanoseconds: Double
    }

    static let script = Repository.url("Benchmarks/bumble_att_benchmark.py")

    /// Why the column is missing, or nil when the venv is there.
    static var unavailableReason: String? {
        FileManager.default.isExecutableFile(atPath: BumbleBench.python.path)
            ? nil : "no bench venv at Tests/bench/.venv (run Tests/bench/setup.sh)"
    }

    /// Figures per PDU of `mix`, by index.
    static func measure(_ mix: [[UInt8]], quick: Bool) throws -> [Int: Figure] {
        let process = Process()
        process.executableURL = BumbleBench.python
        process.arguments = [script.path] + (quick ? ["--quick"] : [])
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.standardError
        try process.run()
        let lines = mix.enumerated().map { i, bytes in "\(i) " + bytes.map { String($0, radix: 16).leftPadded() }.joined() + "\n" }
        input.fileHandleForWriting.write(Data(lines.joined().utf8))
        try input.fileHandleForWriting.close()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        var figures: [Int: Figure] = [:]
        for line in text.split(separator: "\n") where line.hasPrefix("RESULT ") {
            let f = line.split(separator: " ")
            guard f.count == 4, let i = Int(f[1]), let d = Double(f[2]), let e = Double(f[3]) else { continue }
            figures[i] = Figure(decodeNanoseconds: d, encodeNanoseconds: e)
        }
        return figures
    }
}

extension String {
    fileprivate func leftPadded() -> String { count < 2 ? "0" + self : self }
}
