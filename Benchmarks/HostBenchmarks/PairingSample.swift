/// One round of pairings, one after another: the round's wall time and each pairing's,
/// and the CPU time each side spent on them (nil where the round cannot tell).
///
/// A pairing's wall time runs from the initiator's Pairing Request (the call that
/// starts it) to the later of the two sides' completions: the responder finishes last,
/// when the initiator's keys reach it (Core 5.4 Vol 3 Part H §3.6.1).
struct PairingSample: Sendable {
    var pairings: Int
    var wallSeconds: Double
    var eachWallSeconds: [Double]
    /// The initiator's (central's) and the responder's (peripheral's) CPU time: a host's
    /// loop thread, a Bumble host's process, or a `PairingSession`'s calls.
    var centralCPUSeconds: Double?
    var peripheralCPUSeconds: Double?
    /// This process's CPU time (both swift-att hosts and whatever else runs here).
    var processCPUSeconds: Double?

    var perSecond: Double { Double(pairings) / wallSeconds }
    var medianWallMilliseconds: Double { median(eachWallSeconds) * 1e3 }
    var centralMicroseconds: Double? { centralCPUSeconds.map { $0 * 1e6 / Double(pairings) } }
    var peripheralMicroseconds: Double? { peripheralCPUSeconds.map { $0 * 1e6 / Double(pairings) } }
    var processMicroseconds: Double? { processCPUSeconds.map { $0 * 1e6 / Double(pairings) } }
    /// The process's CPU time outside both sides' threads: the benchmark's own task, the
    /// pairing delegates' tasks, the hops between threads.
    var restMicroseconds: Double? {
        guard let p = processCPUSeconds, let c = centralCPUSeconds, let r = peripheralCPUSeconds else { return nil }
        return (p - c - r) * 1e6 / Double(pairings)
    }
}

/// The figures of several rounds, each the median over the rounds (rounds on a shared
/// machine are noisy), with the spread of the rate.
struct PairingFigures: Sendable {
    let rounds: [PairingSample]

    var pairings: Int { rounds.map(\.pairings).reduce(0, +) }
    var perSecond: Double { median(rounds.map(\.perSecond)) }
    var medianWallMilliseconds: Double { median(rounds.map(\.medianWallMilliseconds)) }
    var wallMillisecondsRange: (Double, Double) {
        let each = rounds.map(\.medianWallMilliseconds)
        return (each.min() ?? .nan, each.max() ?? .nan)
    }
    var centralMicroseconds: Double? { medianOf(\.centralMicroseconds) }
    var peripheralMicroseconds: Double? { medianOf(\.peripheralMicroseconds) }
    var processMicroseconds: Double? { medianOf(\.processMicroseconds) }
    var restMicroseconds: Double? { medianOf(\.restMicroseconds) }

    private func medianOf(_ figure: KeyPath<PairingSample, Double?>) -> Double? {
        let values = rounds.compactMap { $0[keyPath: figure] }
        return values.isEmpty ? nil : median(values)
    }
}

/// The median of `values` (the mean of the middle two for an even count); NaN when empty.
func median(_ values: [Double]) -> Double {
    guard !values.isEmpty else { return .nan }
    let sorted = values.sorted()
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}
