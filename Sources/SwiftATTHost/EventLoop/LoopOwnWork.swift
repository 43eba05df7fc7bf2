import SwiftATTHCI

/// What only the loop thread touches between its turns' local variables: the task jobs
/// it hands itself, whether a command from the task running now may go straight to its
/// host, and each running host's stack by slot.
///
/// A command round trip with a task on the loop used to hand the loop work twice
/// through the runner's lock and queue: the answer resumed the task (its job queued
/// from the loop thread), then the task's next command (queued from the loop thread
/// again), each taken off the queue a round later. Both come from the loop thread, and
/// neither can be ordered after anything another thread could see it do: this is what
/// lets them skip the lock (`LoopRunner.enqueue(job:)`, `LoopRunner.send`).
struct LoopOwnWork: ~Copyable {
    /// Tasks resumed or started by the loop thread, run at the start of the runner's
    /// next round (exchanged with a queue of the loop's, so that neither allocates; a
    /// `MoveQueue` rather than an array, which checks its buffer's uniqueness on every
    /// append and empties itself through a generic call).
    var jobs = MoveQueue<UnownedJob>(capacity: 16)
    /// A task job runs now and nothing queued in the same batch comes after it: a
    /// command it sends may be written at once, if nothing waits in the runner's queue
    /// either (the runner reads its `mayHoldItems` flag).
    var commandsGoDirect = false
    /// The stack of each running host by slot, unretained (the loop's records own them;
    /// a host's entry is cleared when it is retired): where a direct command goes.
    var stacks: [Unmanaged<HostStack>?] = []

    mutating func adopt(_ stack: HostStack, slot: Int) {
        while stacks.count <= slot { stacks.append(nil) }
        stacks[slot] = .passUnretained(stack)
    }

    mutating func forget(slot: Int) {
        if slot < stacks.count { stacks[slot] = nil }
    }

    /// The stack of the host in `slot` when a command may be written to it now.
    func directStack(forHost slot: Int) -> Unmanaged<HostStack>? {
        guard commandsGoDirect, slot < stacks.count else { return nil }
        return stacks[slot]
    }
}
