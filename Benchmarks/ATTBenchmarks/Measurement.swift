import BenchmarkSupport
import HeapProbe

/// Times a body over batches and reports the median nanoseconds per operation and the
/// allocations per operation (counted on this thread by HeapProbe's malloc hooks).
struct Measurement {
    var nanosecondsPerOperation: Double
    var allocationsPerOperation: Double

    /// Runs `body` `iterations` times per batch, `batches` times, after one warm-up
    /// batch; the median batch is reported, as timings on shared machines are noisy.
    static func run(iterations: Int, batches: Int = 11, _ body: () -> Void) -> Measurement {
        for _ in 0..<iterations { body() }
        var samples: [Double] = []
        samples.reserveCapacity(batches)
        let allocationsBefore = heap_probe_thread_allocations()
        let clock = ContinuousClock()
        for _ in 0..<batches {
            let start = clock.now
            for _ in 0..<iterations { body() }
            let elapsed = clock.now - start
            let ns = Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) / 1e9
            samples.append(ns / Double(iterations))
        }
        let allocations = heap_probe_thread_allocations() - allocationsBefore
        samples.sort()
        return Measurement(
            nanosecondsPerOperation: samples[samples.count / 2],
            allocationsPerOperation: Double(allocations) / Double(iterations * batches)
        )
    }
}

/// Keeps a value alive and computed: the optimiser cannot see into the C sink.
@inline(__always)
func blackhole<T>(_ value: borrowing T) {
    withUnsafePointer(to: value) { benchmark_blackhole($0) }
}
