import HeapProbe
import Synchronization

/// This process's resident memory and open descriptors through a soak, sampled once a
/// second so that the peak is seen: the figures when streaming starts, after warm-up,
/// and at the end.
///
/// Growth is judged from the warm-up sample, not the start: the first seconds of
/// streaming legitimately allocate (buffers reach their working size, Dispatch opens a
/// timerfd at the first timed sleep), after which a host that leaks nothing stays flat.
final class ResourceWatch: Sendable {
    struct Sample: Sendable {
        let rssKiB: Int
        let fds: Int
        /// Bytes malloc has handed out and not had back (glibc's mallinfo2): beside RSS,
        /// it tells live memory from the allocator keeping freed pages.
        var heapKiB = Int(heap_probe_bytes_in_use() / 1024)

        /// One sample at a time: taking one opens /proc files, and `finish()`'s end
        /// sample could run beside the once-a-second sampler it has just cancelled and
        /// count that one's open descriptor (a CI soak read 13 for 12 at exactly 30 s,
        /// in both the sampler's line and the end sample).
        private static let sampling = Mutex(())

        static func now() -> Sample {
            sampling.withLock { _ in Sample(rssKiB: ProcessFigures.residentKiB(), fds: ProcessFigures.openDescriptors()) }
        }
    }

    struct Figures: Sendable {
        let start: Sample
        let warm: Sample
        let end: Sample
        let peakKiB: Int

        /// What is wrong with these figures: resident memory or malloc's bytes in use
        /// grew by more than their limits after warm-up, or descriptors grew at all.
        ///
        /// Two limits because they catch different things. Bytes in use is what a leak
        /// moves; RSS also keeps the pages of a transient peak (the soak peripheral's heap
        /// has peaked near 2 MiB for half a minute under a loaded machine and fallen back
        /// to its warm-up level, leaving RSS a step higher), so its limit is looser.
        func failures(rssGrowthLimitKiB: Int, heapGrowthLimitKiB: Int) -> [String] {
            var failures: [String] = []
            if end.rssKiB - warm.rssKiB > rssGrowthLimitKiB {
                failures.append("resident memory grew by \(end.rssKiB - warm.rssKiB) KiB after warm-up (limit \(rssGrowthLimitKiB) KiB)")
            }
            if end.heapKiB - warm.heapKiB > heapGrowthLimitKiB {
                failures.append("malloc's bytes in use grew by \(end.heapKiB - warm.heapKiB) KiB after warm-up (limit \(heapGrowthLimitKiB) KiB)")
            }
            if end.fds > warm.fds {
                failures.append("open descriptors grew from \(warm.fds) to \(end.fds)")
            }
            return failures
        }

        var json: String {
            "\"rssStartKiB\":\(start.rssKiB),\"rssWarmKiB\":\(warm.rssKiB),\"rssPeakKiB\":\(peakKiB),\"rssEndKiB\":\(end.rssKiB),"
                + "\"heapStartKiB\":\(start.heapKiB),\"heapWarmKiB\":\(warm.heapKiB),\"heapEndKiB\":\(end.heapKiB),"
                + "\"fdsStart\":\(start.fds),\"fdsWarm\":\(warm.fds),\"fdsEnd\":\(end.fds)"
        }
    }

    private struct State {
        let start: Sample
        var warm: Sample?
        var peakKiB: Int
    }

    private let state: Mutex<State>
    private let sampler = Mutex<Task<Void, Never>?>(nil)

    private init(start: Sample) {
        state = Mutex(State(start: start, peakKiB: start.rssKiB))
    }

    /// Takes the start sample now and samples every second; the first sample at least
    /// `warmUp` after the start is the warm-up sample.
    static func start(warmUp: Duration) -> ResourceWatch {
        let watch = ResourceWatch(start: .now())
        let began = ContinuousClock.now
        let task = Task { [weak watch] in
            var second: Int64 = 0
            while !Task.isCancelled {
                second += 1
                // The sampling clock, on whole seconds from the start, so the 10-second
                // lines never drift.
                guard (try? await Task.sleep(until: began + .seconds(second), clock: .continuous)) != nil,
                      let watch else { return }
                let sample = Sample.now()
                watch.state.withLock { state in
                    state.peakKiB = max(state.peakKiB, sample.rssKiB)
                    if state.warm == nil, .seconds(second) >= warmUp { state.warm = sample }
                }
                // A line every 10 s: whether memory levels off or keeps climbing shows
                // in the run's log, not only in its two end points.
                if second % 10 == 0 {
                    emit("{\"event\":\"sample\",\"seconds\":\(second),\"rssKiB\":\(sample.rssKiB),\"heapKiB\":\(sample.heapKiB),\"fds\":\(sample.fds)}")
                }
            }
        }
        watch.sampler.withLock { $0 = task }
        return watch
    }

    /// Stops sampling and takes the end sample. A run shorter than its warm-up judges
    /// growth from the start.
    func finish() -> Figures {
        sampler.withLock { $0?.cancel() }
        let end = Sample.now()
        return state.withLock { state in
            Figures(start: state.start, warm: state.warm ?? state.start, end: end, peakKiB: max(state.peakKiB, end.rssKiB))
        }
    }
}
