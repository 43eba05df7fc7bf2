import SwiftATTCore
import SwiftATTHCI
import SwiftATTHost

/// `swift-att info --round-trips N`: the HCI command round trip through whatever the
/// transport is (for hci0, the kernel's socket, driver and bus), measured as N Read
/// BD_ADDR commands one after another — the cheapest command every controller answers.
struct RoundTripTiming {
    var count: Int
    /// Each round trip in nanoseconds, sorted.
    var samples: [Int64]

    static func count(_ text: String) throws(CommandError) -> Int {
        guard let n = Int(text), (1...100_000).contains(n) else {
            throw .usage("info: --round-trips takes a count from 1 to 100000, not '\(text)'")
        }
        return n
    }

    /// On the caller's executor, like `Controller.send`: no hop per command.
    ///
    /// Timed with the clock the host's loop reads (`MonotonicInstant.readBootClock`,
    /// `clock_gettime`) and kept as integers, as the kernel bench's C program times its
    /// own: `ContinuousClock` and sorting `Duration`s (128-bit, compared out of line)
    /// cost some 600 instructions per round trip, a sixteenth of the host's own work for
    /// it, measured with callgrind.
    nonisolated(nonsending)
    static func measure(_ controller: Controller, count: Int) async throws(ControllerError) -> RoundTripTiming {
        var samples: [Int64] = []
        samples.reserveCapacity(count)
        for _ in 0..<count {
            let started = MonotonicInstant.readBootClock().nanoseconds
            _ = try await controller.send(ReadBDADDR())
            samples.append(MonotonicInstant.readBootClock().nanoseconds &- started)
        }
        samples.sort()
        return RoundTripTiming(count: count, samples: samples)
    }

    func milliseconds(_ nanoseconds: Int64) -> String {
        String(Double(nanoseconds) / 1e6, decimals: 2)
    }

    var median: Int64 { samples[samples.count / 2] }

    var text: String {
        "HCI round trip: median \(milliseconds(median)) ms, min \(milliseconds(samples[0])) ms, max \(milliseconds(samples[samples.count - 1])) ms over \(count) Read BD_ADDR"
    }
}
