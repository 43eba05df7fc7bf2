import SwiftATTCore
import Testing

/// `MonotonicInstant`: the host's deadlines as plain nanoseconds on `ContinuousClock`.
@Suite struct MonotonicInstantTests {
    @Test func convertsToAndFromContinuousClockExactly() {
        let instant = ContinuousClock.now
        let converted = MonotonicInstant(instant)
        // Nanoseconds keep all a clock read has on Linux, so the way back is exact.
        #expect(converted.continuousInstant == instant)
        #expect(MonotonicInstant(converted.continuousInstant) == converted)
        #expect(MonotonicInstant(instant + .milliseconds(1500)).nanoseconds == converted.nanoseconds + 1_500_000_000)
    }

    @Test func nowFollowsTheClock() {
        let before = ContinuousClock.now
        let now = MonotonicInstant.now
        let after = ContinuousClock.now
        #expect(MonotonicInstant(before) <= now && now <= MonotonicInstant(after))
    }

    @Test func arithmeticMatchesDuration() {
        let t0 = MonotonicInstant(nanoseconds: 5_000_000_000)
        #expect((t0 + .milliseconds(250)).nanoseconds == 5_250_000_000)
        #expect((t0 - .seconds(6)).nanoseconds == -1_000_000_000)
        #expect(t0.advanced(by: .microseconds(-3)).nanoseconds == 4_999_997_000)
        #expect((t0 + .seconds(2)) - t0 == .seconds(2))
        #expect(t0 - (t0 + .nanoseconds(7)) == .nanoseconds(-7))
        #expect(t0.duration(to: t0) == .zero)
        var t = t0
        t += .seconds(1)
        #expect(t > t0 && t.nanoseconds == 6_000_000_000)
        // Attoseconds below a nanosecond are dropped toward zero.
        #expect((t0 + .nanoseconds(1) / 3).nanoseconds == t0.nanoseconds)
    }

    /// A "never" deadline is the far end of the range, not a trap.
    @Test func saturatesAtTheEndsInsteadOfTrapping() {
        let t0 = MonotonicInstant(nanoseconds: 1)
        #expect((t0 + .seconds(Int64.max)).nanoseconds == .max)
        #expect((t0 + .seconds(Int64.min)).nanoseconds == .min + 1)
        #expect((t0 - .seconds(Int64.max)).nanoseconds == 1 - .max)
        #expect((MonotonicInstant(nanoseconds: -5) + .seconds(Int64.min)).nanoseconds == .min)
        #expect(MonotonicInstant(nanoseconds: .max).advanced(byNanoseconds: 1).nanoseconds == .max)
        #expect(MonotonicInstant(nanoseconds: .min).advanced(byNanoseconds: -1).nanoseconds == .min)
        #expect(MonotonicInstant.saturatingNanoseconds(.seconds(9_223_372_037)) == .max)
        #expect(MonotonicInstant.saturatingNanoseconds(.seconds(-9_223_372_037)) == .min)
        #expect(MonotonicInstant.saturatingNanoseconds(.seconds(9_223_372_036)) == 9_223_372_036_000_000_000)
        #expect(MonotonicInstant.saturatingNanoseconds(.seconds(9_223_372_036) + .nanoseconds(854_775_808)) == .max)
        // The whole span between the ends is exact, though it does not fit in Int64.
        let span = MonotonicInstant(nanoseconds: .min).duration(to: MonotonicInstant(nanoseconds: .max))
        #expect(span == .nanoseconds(Int64.max) * 2 + .nanoseconds(1))
    }

    @Test func ordersByTime() {
        let instants = [7, -3, 0, 12].map { MonotonicInstant(nanoseconds: $0) }
        #expect(instants.sorted().map(\.nanoseconds) == [-3, 0, 7, 12])
        #expect(instants.min()?.nanoseconds == -3)
    }
}
