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
    private struct State {
        /// Values admitted that the loop has not applied yet.
        var admitted = 0
        /// The loop last found a subscriber's transmit queue full.
        var congested = false
        /// A caller was refused and awaits `.readyToUpdate`.
        var owedReady = false
    }

    let capacity: Int
    private let state = Mutex(State())

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// Takes a slot for one value, or refuses (remembering that a `.readyToUpdate` is
    /// owed) when the loop is behind or the links are full.
    func admit() -> Bool {
        state.withLock { s in
            if s.congested || s.admitted >= capacity {
                s.owedReady = true
                return false
            }
            s.admitted += 1
            return true
        }
    }

    /// The loop applied (or dropped) `applied` admitted values and found the links
    /// `congested` or not. True when the refused caller is to hear `.readyToUpdate` now:
    /// the links have room and at most half the slots are taken (so that a caller woken
    /// has a run of values to send, not one).
    func settle(applied: Int, congested: Bool) -> Bool {
        state.withLock { s in
            s.admitted -= applied
            s.congested = congested
            guard s.owedReady, !congested, s.admitted <= capacity / 2 else { return false }
            s.owedReady = false
            return true
        }
    }
}
