/// The side that starts each pairing (the central): a swift-att host or a Bumble host.
protocol PairingInitiator {
    /// Pairs once; when it started and when this side finished, in
    /// `CPUClock.monotonicSeconds()`.
    func pair() async throws -> (start: Double, end: Double)
    /// The CPU time this side has used so far; nil when it cannot be told from the
    /// other side's.
    func cpuSeconds() async throws -> Double?
}

/// The side that answers (the peripheral).
protocol PairingResponder {
    /// Waits for this side's next completed pairing and says when it completed.
    func completed() async throws -> Double
    func cpuSeconds() async throws -> Double?
}

/// Pairs `initiator` with `responder` again and again on one link: `warmup` pairings,
/// then `count` measured, each started only once both sides have finished the one
/// before. The round's wall time includes whatever passes between pairings (for the
/// Bumble peers, the pipe round trips that tell them to go on); each pairing's own wall
/// time does not.
func pairingRound(_ initiator: some PairingInitiator, _ responder: some PairingResponder,
                  warmup: Int, count: Int) async throws -> PairingSample {
    func pairOnce() async throws -> Double {
        let (start, end) = try await initiator.pair()
        let done = try await responder.completed()
        return max(end, done) - start
    }
    for _ in 0..<warmup { _ = try await pairOnce() }
    let cpuBefore = (try await initiator.cpuSeconds(), try await responder.cpuSeconds())
    let processBefore = CPUClock.seconds()
    let start = CPUClock.monotonicSeconds()
    var each: [Double] = []
    for _ in 0..<count { each.append(try await pairOnce()) }
    let wall = CPUClock.monotonicSeconds() - start
    let process = CPUClock.seconds() - processBefore
    let cpuAfter = (try await initiator.cpuSeconds(), try await responder.cpuSeconds())
    func spent(_ before: Double?, _ after: Double?) -> Double? { before.flatMap { b in after.map { $0 - b } } }
    return PairingSample(pairings: count, wallSeconds: wall, eachWallSeconds: each,
                         centralCPUSeconds: spent(cpuBefore.0, cpuAfter.0), peripheralCPUSeconds: spent(cpuBefore.1, cpuAfter.1),
                         processCPUSeconds: process)
}
