@testable import Host
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
}
