/// The values a listener's link received during the batch the loop is handling, held on
/// the loop thread until the batch is done: then they reach the consumer's
/// `NotificationChannel` together, under one lock, instead of one lock (and one
/// reference-counted hand-over) per value.
final class NotificationStaging {
    let channel: NotificationChannel
    /// Touched per value, so not checked for exclusive access at run time: only the loop
    /// thread touches a staging, and the array's own methods, the only code that runs
    /// while it is being mutated, cannot reach it. (`flush` hands the array to the
    /// channel, which swaps it under its own lock and never calls back.)
    @exclusivity(unchecked) private var pending = NotificationBatch()

    init(channel: NotificationChannel) {
        self.channel = channel
    }

    /// Holds a copy of `value`; the first of a batch joins `staged`, the listeners to flush.
    func stage(handle: UInt16, value: UnsafeBufferPointer<UInt8>, isIndication: Bool, in staged: inout [NotificationStaging]) {
        if pending.isEmpty { staged.append(self) }
        pending.append(handle: handle, value: value, isIndication: isIndication)
    }

    /// The loop owes this listener's consumer a wake-up (`NotificationChannel.Wake.owed`)
    /// and has it in `AttributeLinks.owedWakes`: loop thread only, as `pending` is.
    @exclusivity(unchecked) var owesWake = false

    /// Hands what is held to the channel; says whom to wake.
    func flush() -> NotificationChannel.Wake {
        channel.append(contentsOf: &pending)
    }
}
