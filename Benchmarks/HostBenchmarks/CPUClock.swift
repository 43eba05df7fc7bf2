#if canImport(Glibc)
import Glibc
#endif

/// The CPU time this process has used (user + system, every thread), from getrusage:
/// what "per core" figures divide by, since wall time on a shared two-core machine
/// says little about how much work a notification costs.
enum CPUClock {
    static func seconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        func s(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
        return s(usage.ru_utime) + s(usage.ru_stime)
    }

    /// How many times this process's threads have given up the CPU to wait (voluntary
    /// context switches, from getrusage): a thread that sleeps in poll or on a lock and
    /// is woken counts one. The sleeps and wake-ups between threads cost CPU time of
    /// their own.
    static func voluntaryContextSwitches() -> Int {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return usage.ru_nvcsw
    }

    /// The CPU time the calling thread has used, to the nanosecond: on a host's loop
    /// thread, what that host cost, whatever the rest of the process did meanwhile.
    static func threadSeconds() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }

    /// Wall-clock seconds on CLOCK_MONOTONIC, the clock every process on the machine
    /// shares (Python's `time.monotonic()`): a time a Bumble process reports compares
    /// with one taken here.
    static func monotonicSeconds() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }
}

/// One measured run: how many notifications (or packets) arrived, the wall time and
/// the process CPU time they took.
struct Sample: Sendable {
    var delivered: Int
    var wallSeconds: Double
    var cpuSeconds: Double
    /// With a loop per host: the CPU time of the sending host's thread, and of all the
    /// receiving hosts' threads together.
    var hostCPUSeconds: (sender: Double, receivers: Double)?

    var perSecond: Double { Double(delivered) / wallSeconds }
    /// Delivered per second of CPU time: the rate one fully used core would reach.
    var perCPUSecond: Double { Double(delivered) / cpuSeconds }
    var cpuMicrosecondsEach: Double { cpuSeconds * 1e6 / Double(delivered) }

    /// The median sample by CPU cost (runs on a shared machine are noisy).
    static func median(_ samples: [Sample]) -> Sample {
        samples.sorted { $0.cpuMicrosecondsEach < $1.cpuMicrosecondsEach }[samples.count / 2]
    }
}

extension Duration {
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
