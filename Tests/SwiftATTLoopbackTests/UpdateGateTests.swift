@testable import SwiftATTHost
import Synchronization
import Testing

/// The admission rules behind `Peripheral.updateValue`: slots up to the capacity, a
/// refusal while the loop is behind or the links are full, and exactly one
/// `.readyToUpdate` owed to a refused caller, due once both have cleared.
@Suite struct UpdateGateTests {
    @Test func admitsUpToCapacityThenRefuses() {
        let gate = UpdateGate(capacity: 4)
        #expect((0..<4).allSatisfy { _ in gate.admit() })
        #expect(!gate.admit())
    }

    @Test func readyIsOwedOnlyAfterARefusalAndComesOnceHalfTheSlotsAreFree() {
        let gate = UpdateGate(capacity: 4)
        for _ in 0..<4 { _ = gate.admit() }
        // Nobody was refused yet: applying values owes nobody a ready.
        #expect(!gate.settle(applied: 1, congested: false))
        _ = gate.admit()
        #expect(!gate.admit())
        // Three of four slots still taken: not yet.
        #expect(!gate.settle(applied: 1, congested: false))
        // Two of four: the refused caller hears, once.
        #expect(gate.settle(applied: 1, congested: false))
        #expect(!gate.settle(applied: 1, congested: false))
        #expect(gate.admit())
    }

    @Test func congestedLinksRefuseUntilTheLoopSaysTheyHaveRoom() {
        let gate = UpdateGate(capacity: 8)
        #expect(gate.admit())
        #expect(!gate.settle(applied: 1, congested: true))
        #expect(!gate.admit())
        // Room on the links, but the loop reports it still congested: no ready.
        #expect(!gate.settle(applied: 0, congested: true))
        #expect(gate.settle(applied: 0, congested: false))
        #expect(gate.admit())
    }

    /// The state is one atomic word that callers and the loop change at once: however
    /// their compare-and-swaps interleave, no more than `capacity` values are ever
    /// outstanding, and every slot taken is given back (the gate ends where it began).
    @Test func concurrentCallersAndTheLoopKeepTheCountExact() async {
        let gate = UpdateGate(capacity: 16)
        let counts = Counts()
        let callers = 3
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<callers {
                group.addTask {
                    for _ in 0..<20_000 where gate.admit() {
                        if counts.outstanding.add(1, ordering: .relaxed).newValue > 16 { counts.overfull.add(1, ordering: .relaxed) }
                    }
                    counts.callersDone.add(1, ordering: .relaxed)
                }
            }
            group.addTask {
                var toggle = false
                while true {
                    let finished = counts.callersDone.load(ordering: .relaxed) == callers
                    let taken = counts.outstanding.exchange(0, ordering: .relaxed)
                    toggle.toggle()
                    _ = gate.settle(applied: taken, congested: toggle && !finished)
                    if finished && counts.outstanding.load(ordering: .relaxed) == 0 { break }
                }
                _ = gate.settle(applied: 0, congested: false)
            }
        }
        #expect(counts.overfull.load(ordering: .relaxed) == 0)
        #expect((0..<16).allSatisfy { _ in gate.admit() })
        #expect(!gate.admit())
    }

    /// What the concurrent test's tasks share.
    private final class Counts: Sendable {
        /// Values admitted that the "loop" has not settled yet.
        let outstanding = Atomic<Int>(0)
        /// Admissions that found more than the capacity outstanding.
        let overfull = Atomic<Int>(0)
        let callersDone = Atomic<Int>(0)
    }
}
