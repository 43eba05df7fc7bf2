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
            samples.append((clock.now - start).nanoseconds / Double(iterations))
        }
        let allocations = heap_probe_thread_allocations() - allocationsBefore
        return Measurement(
            nanosecondsPerOperation: median(samples),
            allocationsPerOperation: Double(allocations) / Double(iterations * batches)
        )
    }
}

/// Two bodies timed in turns, for a ratio between them: the floor and the borrowed decode.
///
/// Each round times a batch of each, back to back, in alternating order, and the ratio
/// is the median of the rounds' own ratios: a clock that speeds up or slows down over the
/// run moves both sides of a round together. Timed one after the other, each over its
/// own batches (as the table did until now, the borrowed decode from the top-level code
/// and the floor from a function), the worst borrowed÷floor of one build read anywhere
/// from 2.4 to 3.9 in CI, and on a quiet machine a Notification's read 2.80 where the
/// two timed in turns from one function read 2.16.
struct MeasuredPair {
    var first: Measurement
    var second: Measurement
    /// The median over the rounds of second ÷ first.
    var ratio: Double

    static func run(iterations: Int, rounds: Int, _ first: () -> Void, _ second: () -> Void) -> MeasuredPair {
        for _ in 0..<iterations { first(); second() }
        let clock = ContinuousClock()
        func batch(_ body: () -> Void) -> Double {
            let start = clock.now
            for _ in 0..<iterations { body() }
            return (clock.now - start).nanoseconds / Double(iterations)
        }
        var firstSamples: [Double] = [], secondSamples: [Double] = [], ratios: [Double] = []
        var firstAllocations = 0, secondAllocations = 0
        for round in 0..<rounds {
            var a = 0.0, b = 0.0
            for turn in 0..<2 {
                let before = heap_probe_thread_allocations()
                if (round + turn) % 2 == 0 {
                    a = batch(first)
                    firstAllocations += Int(heap_probe_thread_allocations() - before)
                } else {
                    b = batch(second)
                    secondAllocations += Int(heap_probe_thread_allocations() - before)
                }
            }
            firstSamples.append(a)
            secondSamples.append(b)
            ratios.append(b / a)
        }
        let operations = Double(iterations * rounds)
        return MeasuredPair(
            first: Measurement(nanosecondsPerOperation: median(firstSamples), allocationsPerOperation: Double(firstAllocations) / operations),
            second: Measurement(nanosecondsPerOperation: median(secondSamples), allocationsPerOperation: Double(secondAllocations) / operations),
            ratio: median(ratios))
    }
}

/// The middle of `values` (the upper one of an even count): what each table reports.
func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

extension Duration {
    var nanoseconds: Double { Double(components.seconds) * 1e9 + Double(components.attoseconds) / 1e9 }
}

/// Keeps a value alive and computed: the optimiser cannot see into the C sink.
@inline(__always)
func blackhole<T>(_ value: borrowing T) {
    withUnsafePointer(to: value) { benchmark_blackhole($0) }
}
