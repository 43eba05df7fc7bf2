import Foundation
import Testing
import TestSupport

/// `dump` streams: its peak memory on a capture of 200 000 records (8 MB) is within a few
/// MiB of its peak on the 535-record capture the big one repeats.
@Suite("swift-att dump streaming")
struct DumpStreamingTests {
    static let largeRecordCount = 200_000

    /// The records of `fixture` repeated to `count`, timestamps unchanged.
    static func repeatedCapture(_ fixture: String, count: Int) throws -> TemporaryCapture {
        let bytes = try FixtureFiles.bytes(fixture)
        var records: [ArraySlice<UInt8>] = []
        var offset = 16
        while offset + 24 <= bytes.count {
            let included = Int(bytes[offset + 4]) << 24 | Int(bytes[offset + 5]) << 16 | Int(bytes[offset + 6]) << 8 | Int(bytes[offset + 7])
            records.append(bytes[offset..<(offset + 24 + included)])
            offset += 24 + included
        }
        var out = Array(bytes[0..<16])
        out.reserveCapacity(16 + count * 48)
        for i in 0..<count { out += records[i % records.count] }
        return try TemporaryCapture(out)
    }

    /// Peak resident set of `swift-att arguments…` in KiB, as `/usr/bin/time` reports it,
    /// standard output discarded. Awaits the exit rather than blocking in `waitUntilExit`:
    /// a dump of the large capture takes seconds (tens of them instrumented), and the
    /// two cases blocking both threads of Swift's cooperative pool would starve every
    /// other test meanwhile (a tcp-server's 30-s wait for its peer runs out before the
    /// test that started it gets to connect).
    static func peakKiB(_ arguments: [String]) async throws -> Int {
        let binary = try #require(SwiftATTProcess.binary)
        let report = FileManager.default.temporaryDirectory.appendingPathComponent("swift-att-rss-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: report) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/time")
        process.arguments = ["-o", report.path, "-f", "%M", binary.path] + arguments
        process.standardOutput = FileHandle.nullDevice
        // AddressSanitizer keeps freed memory in a quarantine (256 MB) before reusing it,
        // so the peak would grow with every record dump frees; without one it is what
        // dump keeps, as in an uninstrumented run.
        var environment = ProcessInfo.processInfo.environment
        if environment["SWIFT_ATT_SANITIZER"] == "address" {
            environment["ASAN_OPTIONS"] = [environment["ASAN_OPTIONS"], "quarantine_size_mb=0"].compactMap { $0 }.joined(separator: ":")
        }
        process.environment = environment
        let status = try await process.runToExit()
        #expect(status == 0)
        let text = try String(contentsOf: report, encoding: .utf8)
        return try #require(text.split(separator: "\n").last.flatMap { Int($0) })
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/time")), arguments: [true, false])
    func memoryStaysFlat(_ json: Bool) async throws {
        let fixture = "captures/gatt-mtu23-central.btsnoop"
        let large = try Self.repeatedCapture(fixture, count: Self.largeRecordCount)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: large.path)[.size] as? Int)
        #expect(size > 8_000_000)
        let flags = json ? ["--json"] : []
        let small = try await Self.peakKiB(["dump"] + flags + [FixtureFiles.url(fixture).path])
        let big = try await Self.peakKiB(["dump"] + flags + [large.path])
        // Reading the file whole would add its 8 MB at least.
        #expect(big - small < 4 * 1024, "peak \(big) KiB on \(size) bytes against \(small) KiB on the fixture")
    }
}
