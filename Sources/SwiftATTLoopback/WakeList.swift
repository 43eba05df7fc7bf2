/// The hosts one lock's work must wake (`LinkState.deliver`), carried out of the lock by
/// value: two inline, more in an array.
///
/// An array alone cost an allocation per wake-up — handed out of the lock and emptied
/// inside it, its buffer was shared at that moment, so emptying it made a new one — on
/// the thread of whichever host's receive credited the other's packets.
struct WakeList: Sendable {
    private var first: WakePipe?
    private var second: WakePipe?
    private var more: [WakePipe] = []

    var isEmpty: Bool { first == nil }

    mutating func append(_ pipe: WakePipe) {
        if first == nil {
            first = pipe
        } else if second == nil {
            second = pipe
        } else {
            more.append(pipe)
        }
    }

    /// Wakes each host, in the order queued.
    func wakeAll() {
        first?.wake()
        second?.wake()
        for pipe in more { pipe.wake() }
    }
}
