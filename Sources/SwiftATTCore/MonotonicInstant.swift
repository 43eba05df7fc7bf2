/// A point in time on `ContinuousClock`, held as whole nanoseconds since the clock's
/// system epoch (on Linux the boot: the value `CLOCK_BOOTTIME` reads) in one `Int64`
/// the compiler can see into.
///
/// The host's state machines (command flow, ATT bearer, pairing, channels) take the
/// time of the loop's turn and keep deadlines. `ContinuousClock.Instant` is resilient
/// outside the standard library: every copy of an optional one, every comparison and
/// every `+ Duration` goes through the runtime's value witnesses and 128-bit
/// arithmetic, some 1,500 instructions per HCI command round trip. This type is frozen,
/// so those become integer moves and compares. It reads the same clock, so a
/// `MonotonicInstant` and a `ContinuousClock.Instant` convert both ways.
///
/// Arithmetic saturates at the ends of `Int64` (some 292 years either side of the
/// epoch): a caller's "never" (`.seconds(.max)`) is a deadline that does not come,
/// not a trap.
@frozen
public struct MonotonicInstant: Sendable, Hashable, Comparable {
    /// Nanoseconds since `ContinuousClock`'s system epoch. A reader of the platform's
    /// clock (`CLOCK_BOOTTIME` on Linux) may make instants from its value directly; on
    /// the hot path that skips the 128-bit arithmetic of converting a `Duration`.
    public var nanoseconds: Int64

    /// The instant `nanoseconds` after `ContinuousClock`'s system epoch.
    @inlinable
    public init(nanoseconds: Int64) {
        self.nanoseconds = nanoseconds
    }

    /// The instant `instant` of `ContinuousClock`.
    public init(_ instant: ContinuousClock.Instant) {
        nanoseconds = Self.saturatingNanoseconds(instant - systemEpoch)
    }

    /// The current time: one read of `ContinuousClock`.
    public static var now: MonotonicInstant {
        MonotonicInstant(ContinuousClock.now)
    }

    /// The same instant on `ContinuousClock` (for `Task.sleep(until:)` and the like).
    public var continuousInstant: ContinuousClock.Instant {
        systemEpoch + .nanoseconds(nanoseconds)
    }

    /// Whether `lhs` comes before `rhs`: one integer comparison.
    @inlinable
    public static func < (lhs: MonotonicInstant, rhs: MonotonicInstant) -> Bool {
        lhs.nanoseconds < rhs.nanoseconds
    }

    /// `duration` after this instant, saturating.
    @inlinable
    public func advanced(by duration: Duration) -> MonotonicInstant {
        advanced(byNanoseconds: Self.saturatingNanoseconds(duration))
    }

    /// `nanoseconds` after this instant, saturating: for a hot path that converted
    /// its `Duration` once.
    @inlinable
    public func advanced(byNanoseconds delta: Int64) -> MonotonicInstant {
        let (sum, overflow) = nanoseconds.addingReportingOverflow(delta)
        return MonotonicInstant(nanoseconds: overflow ? (delta < 0 ? .min : .max) : sum)
    }

    /// The time from this instant to `other` (negative if `other` is earlier).
    @inlinable
    public func duration(to other: MonotonicInstant) -> Duration {
        let (difference, overflow) = other.nanoseconds.subtractingReportingOverflow(nanoseconds)
        if !overflow { return .nanoseconds(difference) }
        // Only instants near both ends of Int64 get here: split to stay exact.
        return .nanoseconds(other.nanoseconds / 2 - nanoseconds / 2) * 2
            + .nanoseconds(other.nanoseconds % 2 - nanoseconds % 2)
    }

    /// `rhs` after `lhs`, saturating (`advanced(by:)`).
    @inlinable
    public static func + (lhs: MonotonicInstant, rhs: Duration) -> MonotonicInstant {
        lhs.advanced(by: rhs)
    }

    /// `rhs` before `lhs`, saturating.
    @inlinable
    public static func - (lhs: MonotonicInstant, rhs: Duration) -> MonotonicInstant {
        let nanoseconds = saturatingNanoseconds(rhs)
        return lhs.advanced(byNanoseconds: nanoseconds == .min ? .max : -nanoseconds)
    }

    /// The time from `rhs` to `lhs` (negative if `lhs` is earlier).
    @inlinable
    public static func - (lhs: MonotonicInstant, rhs: MonotonicInstant) -> Duration {
        rhs.duration(to: lhs)
    }

    /// Moves `lhs` `rhs` later, saturating.
    @inlinable
    public static func += (lhs: inout MonotonicInstant, rhs: Duration) {
        lhs = lhs + rhs
    }

    /// `duration` in whole nanoseconds (toward zero), clamped to `Int64`.
    @inlinable
    public static func saturatingNanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return seconds < 0 ? .min : .max }
        let (sum, carry) = whole.addingReportingOverflow(attoseconds / 1_000_000_000)
        return carry ? (seconds < 0 ? .min : .max) : sum
    }
}

extension MonotonicInstant: CustomStringConvertible {
    /// `MonotonicInstant(123456789 ns)`: the nanoseconds since the epoch.
    public var description: String { "MonotonicInstant(\(nanoseconds) ns)" }
}

/// The instant every `MonotonicInstant` counts from.
private let systemEpoch = ContinuousClock().systemEpoch
