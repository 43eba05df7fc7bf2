#if canImport(Glibc)
import Glibc
#endif
import BenchSupport
import Foundation
import Testing

/// Helpers (Bumble's scripts, the swift-att binary) are started from tests, that is from
/// threads of Swift's cooperative pool, which block nearly every signal; a child inherits
/// that mask. `runStoppable` must leave SIGTERM and SIGINT deliverable in the child, or
/// stopping a helper falls back on SIGKILL at best, or on the helper's own time limit.
@Suite struct HelperProcessTests {
    @Test func aHelperStartedFromATestEndsOnSIGTERM() async throws {
        var before = sigset_t()
        pthread_sigmask(SIG_BLOCK, nil, &before)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sleep")
        process.arguments = ["60"]
        try process.runStoppable()
        var after = sigset_t()
        pthread_sigmask(SIG_BLOCK, nil, &after)
        #expect(Self.members(before) == Self.members(after), "the calling thread's mask is put back")

        let status = try String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("SigBlk:") })
        let blocked = try #require(UInt64(line.dropFirst("SigBlk:".count).trimmingCharacters(in: .whitespaces), radix: 16))
        #expect(blocked & (1 << UInt64(SIGTERM - 1)) == 0, "SIGTERM blocked in the child: \(line)")
        #expect(blocked & (1 << UInt64(SIGINT - 1)) == 0, "SIGINT blocked in the child: \(line)")

        // `end` sends SIGTERM and falls back on SIGKILL after half a second: the status
        // tells which one ended it.
        process.end()
        #expect(process.terminationReason == .uncaughtSignal)
        #expect(process.terminationStatus == SIGTERM)
    }

    /// The signals 1...64 in `set`.
    private static func members(_ set: sigset_t) -> [Int32] {
        var set = set
        return (1...64).filter { sigismember(&set, $0) == 1 }
    }
}
