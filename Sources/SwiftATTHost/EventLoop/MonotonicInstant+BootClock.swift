#if canImport(Glibc)
import Glibc
#endif
import SwiftATTCore

extension MonotonicInstant {
    /// The current time, read as the host's loop reads it once a turn: `CLOCK_BOOTTIME`
    /// straight from the vDSO, the clock `ContinuousClock` reads on Linux, whose value
    /// is a `MonotonicInstant`'s. `MonotonicInstant.now` goes through `ContinuousClock`
    /// and a `Duration`'s 128-bit components, some 400 instructions against some 60 here.
    /// Public for a caller timing the host from outside (`swift-att info --round-trips`).
    public static func readBootClock() -> MonotonicInstant {
        #if os(Linux)
        var time = timespec()
        clock_gettime(CLOCK_BOOTTIME, &time)
        return MonotonicInstant(nanoseconds: Int64(time.tv_sec) &* 1_000_000_000 &+ Int64(time.tv_nsec))
        #else
        return .now
        #endif
    }
}
