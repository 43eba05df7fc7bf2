import Synchronization

/// Admission for `Peripheral.updateValue`, decided on the caller's thread so that a
/// value stream does not wait for a round trip through the loop thread per value.
///
/// The caller takes a slot for each value it hands the loop; the loop gives slots back
/// as it applies them, and says whether the subscribers' transmit queues are full. A
/// caller refused (no slot, or the links full) is owed one `.readyToUpdate`, sent by the
/// loop when both clear — CoreBluetooth's `updateValue` returning false, then
/// `peripheralManagerIsReady(toUpdateSubscribers:)`. At most `capacity` values wait
/// between the caller and the loop, which bounds how far a link's queue can overshoot
/// the loop's own limit.
final class UpdateGate: Sendable {
    /// The state in one word, so that admitting a value is one compare-and-swap on the
    /// caller's thread rather than a lock: the values admitted that the loop has not
    /// applied yet (above the two flags), the loop last found a subscriber's transmit
    /// queue full (`congested`), a caller was refused and awaits `.readyToUpdate`
    /// (`owedReady`).
    private struct Word {
        var bits: Int

        static let congested = 1
        static let owedReady = 2
        static let one = 4

        var admitted: Int { bits >> 2 }
        func has(_ flag: Int) -> Bool { bits & flag != 0 }
    }

    let capacity: Int
    private let word = Atomic<Int>(0)

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// Takes a slot for one value, or refuses (remembering that a `.readyToUpdate` is
    /// owed) when the loop is behind or the links are full.
    func admit() -> Bool {
        var old = Word(bits: word.load(ordering: .relaxed))
        while true {
            let refused = old.has(Word.congested) || old.admitted >= capacity
            if refused && old.has(Word.owedReady) { return false }
            let new = refused ? old.bits | Word.owedReady : old.bits + Word.one
            let (exchanged, current) = word.compareExchange(expected: old.bits, desired: new, ordering: .acquiringAndReleasing)
            if exchanged { return !refused }
            old = Word(bits: current)
        }
    }

    /// The loop applied (or dropped) `applied` admitted values and found the links
    /// `congested` or not. True when the refused caller is to hear `.readyToUpdate` now:
    /// the links have room and at most half the slots are taken (so that a caller woken
    /// has a run of values to send, not one).
    func settle(applied: Int, congested: Bool) -> Bool {
        var old = Word(bits: word.load(ordering: .relaxed))
        while true {
            var new = Word(bits: old.bits - applied * Word.one)
            new.bits = congested ? new.bits | Word.congested : new.bits & ~Word.congested
            let ready = new.has(Word.owedReady) && !congested && new.admitted <= capacity / 2
            if ready { new.bits &= ~Word.owedReady }
            let (exchanged, current) = word.compareExchange(expected: old.bits, desired: new.bits, ordering: .acquiringAndReleasing)
            if exchanged { return ready }
            old = Word(bits: current)
        }
    }
}
