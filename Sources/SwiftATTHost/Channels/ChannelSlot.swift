import SwiftATTCore
import SwiftATTL2CAP

/// One open credit-based channel on the loop: the pure machine, the reader's inbox, and
/// the callers waiting on it (writers for room, `flush` and `close` for their end).
///
/// Loop-confined, owned by `CreditBasedChannels`. It holds no reference to the public
/// `L2CAPChannel`, whose release is what closes a channel nobody uses.
final class ChannelSlot {
    /// A `send` waiting for room in the send queue.
    struct PendingWrite {
        var id: Int
        var sdu: [UInt8]
        var completion: (L2CAPChannelError?) -> Void
    }

    let serial: Int
    let handle: UInt16
    let psm: SPSM
    let mode: CreditBasedFlowControlMode
    var machine: CreditBasedChannel
    let inbox: SDUInbox
    /// The host's own reader (an Enhanced ATT bearer), which takes SDUs as they complete
    /// instead of the inbox.
    var sink: ChannelSink?
    /// The sizes the public channel reports, kept in step with the machine's.
    let sizes: ChannelSizes
    var statistics = L2CAPChannelStatistics()
    /// Sizes this host asked the peer to take (its reconfiguration), until answered.
    var reconfiguring: (mtu: UInt16, mps: UInt16)?
    /// SDUs completed during this read of the transport, handed to the inbox at its end.
    var staged: [[UInt8]] = []
    var writers: [PendingWrite] = []
    var flushWaiters: [() -> Void] = []
    var closeWaiters: [() -> Void] = []
    /// `close()` was asked: the channel disconnects once its queue has drained, or at
    /// `closeDeadline`, whichever comes first.
    var closeRequested = false
    var closeDeadline: MonotonicInstant?
    /// The Disconnection Request went; the CID stays taken until the answer (or its
    /// timeout).
    var disconnecting = false

    init(serial: Int, handle: UInt16, psm: SPSM, mode: CreditBasedFlowControlMode, machine: CreditBasedChannel,
         inbox: SDUInbox, sizes: ChannelSizes) {
        self.serial = serial
        self.handle = handle
        self.psm = psm
        self.mode = mode
        self.machine = machine
        self.inbox = inbox
        self.sizes = sizes
    }

    var localCID: UInt16 { machine.configuration.localCID }
    var peerCID: UInt16 { machine.configuration.peerCID }

    /// Nothing waits to leave in K-frames.
    var sendQueueEmpty: Bool { machine.queuedSDUs == 0 && writers.isEmpty }

    /// The channel ended: the reader gets `error` after what it has not read (nil: a
    /// clean end), writers and flushes are answered.
    func end(_ error: L2CAPChannelError?, writers failure: L2CAPChannelError) {
        inbox.finish(throwing: error, reason: machine.closeReason ?? .linkLost)
        if let sink {
            self.sink = nil
            sink.ended(error)
        }
        let waiting = writers
        writers = []
        for writer in waiting { writer.completion(failure) }
        let flushes = flushWaiters
        flushWaiters = []
        for flush in flushes { flush() }
    }

    /// The CID is free again: `close()` callers return.
    func released() {
        inbox.keep(statistics)
        let waiters = closeWaiters
        closeWaiters = []
        for waiter in waiters { waiter() }
        let flushes = flushWaiters
        flushWaiters = []
        for flush in flushes { flush() }
    }
}
