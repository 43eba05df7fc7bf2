@testable import SwiftATTHost
import SwiftATTCore
import Testing

/// The loop's clock read and its `poll(2)` timeout, both on `MonotonicInstant`'s nanoseconds.
@Suite struct LoopClockTests {
    /// The loop reads `CLOCK_BOOTTIME` directly; every other reader goes through
    /// `ContinuousClock`. Deadlines mix the two, so they must be one timeline.
    @Test func bootClockIsContinuousClocksTimeline() {
        let before = MonotonicInstant.now
        let read = MonotonicInstant.readBootClock()
        let after = MonotonicInstant.now
        #expect(before <= read && read <= after, "boot clock \(read) outside \(before)...\(after)")
    }

    @Test func pollTimeoutRoundsUpAndClamps() {
        let now = MonotonicInstant(nanoseconds: 1_000_000_000)
        #expect(LoopRunner.timeout(until: nil, from: now) == -1)
        #expect(LoopRunner.timeout(until: now, from: now) == 0)
        #expect(LoopRunner.timeout(until: now - .milliseconds(5), from: now) == 0)
        #expect(LoopRunner.timeout(until: now + .nanoseconds(1), from: now) == 1)
        #expect(LoopRunner.timeout(until: now + .milliseconds(30), from: now) == 30)
        #expect(LoopRunner.timeout(until: now + .microseconds(30_001), from: now) == 31)
        #expect(LoopRunner.timeout(until: now + .seconds(100_000_000), from: now) == .max)
        #expect(LoopRunner.timeout(until: MonotonicInstant(nanoseconds: .max),
                                   from: MonotonicInstant(nanoseconds: .min)) == .max)
    }
}
