import SwiftATTHCI
import SwiftATTHost

/// `swift-att info --round-trips N`: the HCI command round trip through whatever the
/// transport is (for hci0, the kernel's socket, driver and bus), measured as N Read
/// BD_ADDR commands one after another — the cheapest command every controller answers.
struct RoundTripTiming {
    var count: Int
    /// Each round trip, sorted.
    var samples: [Duration]

    static func count(_ text: String) throws(CommandError) -> Int {
        guard let n = Int(text), (1...100_000).contains(n) else {
            throw .usage("info: --round-trips takes a count from 1 to 100000, not '\(text)'")
        }
        return n
    }

    /// On the caller's executor, like `Controller.send`: no hop per command.
    nonisolated(nonsending)
    static func measure(_ controller: Controller, count: Int) async throws(ControllerError) -> RoundTripTiming {
        var samples: [Duration] = []
        samples.reserveCapacity(count)
        let clock = ContinuousClock()
        for _ in 0..<count {
            let started = clock.now
            _ = try await controller.send(ReadBDADDR())
            samples.append(clock.now - started)
        }
        return RoundTripTiming(count: count, samples: samples.sorted())
    }

    func milliseconds(_ d: Duration) -> String {
        let c = d.components
        return String(Double(c.seconds) * 1e3 + Double(c.attoseconds) / 1e15, decimals: 2)
    }

    var median: Duration { samples[samples.count / 2] }

    var text: String {
        "HCI round trip: median \(milliseconds(median)) ms, min \(milliseconds(samples[0])) ms, max \(milliseconds(samples[samples.count - 1])) ms over \(count) Read BD_ADDR"
    }
}
