import SwiftATTCore

/// The data path of one open LE credit-based channel: K-frames out and in, credits
/// both ways, and its end. Core 5.4 Vol 3 Part A §3.4.3 (K-frames) and §10.1 (credit-
/// based flow control); the channel is the same once open in LE Credit Based Flow
/// Control mode and in Enhanced Credit Based Flow Control mode.
///
/// Pure, like `GATTServer`: no I/O, no threads, no clock. One owner (the host's loop)
/// feeds it what arrives — K-frame payloads, credit grants, the peer's disconnection —
/// and the application's SDUs, and takes out what to do: K-frames to send
/// (`nextFrame()`, as credits allow) and signaling to send (`nextAction()`: credits to
/// grant, a disconnection). Nothing it returns allocates on the way through except a
/// reassembled multi-frame SDU.
///
/// Credits: `sendCredits` are the peer's grants this host has not spent; `peerCredits`
/// are this host's grants the peer has not spent. The receive window is fixed by the
/// `CreditReturnPolicy`: at every moment the credits the peer holds, the K-frames held
/// here (an SDU in reassembly, SDUs delivered and not yet consumed) and the credits
/// ready to return add up to the window (`peerCredits + heldCredits + creditsToReturn`),
/// which is at most 65535.
public struct CreditBasedChannel: Sendable {
    /// Open, or ended. `closing` has ended but owes its owner the `.disconnect` action.
    public enum State: Sendable, Hashable {
        /// Carrying SDUs.
        case open
        /// Ended for this reason; the owner still has to send the disconnection.
        case closing(CreditBasedChannelCloseReason)
        /// Ended for this reason, and nothing more is owed.
        case closed(CreditBasedChannelCloseReason)
    }

    /// What an ended channel dropped: the owner fails that many pending writes, and
    /// reports the partial SDU.
    public struct Discarded: Sendable, Hashable {
        /// SDUs not fully sent (one partly sent counts).
        public var unsentSDUs = 0
        /// Their octets not yet handed out in K-frames.
        public var unsentOctets = 0
        /// Octets of an SDU in reassembly, dropped.
        public var partialSDUOctets = 0
        /// SDUs delivered to the application whose credits will not come back (no
        /// matter: the channel is gone).
        public var unconsumedSDUs = 0

        /// Nothing dropped.
        public init() {}
    }

    /// An SDU in reassembly: its announced length, what has arrived, and how many
    /// K-frames (credits) it holds.
    struct Reassembly: Sendable {
        var sduLength: Int
        var bytes: [UInt8]
        var frames: Int
    }

    /// What the channel was opened with; an Enhanced channel's sizes change with a
    /// reconfiguration (`peerReconfigured`, `receiveSizes`).
    public private(set) var configuration: CreditBasedChannelConfiguration
    /// Whether the channel is open, and why it ended.
    public private(set) var state: State = .open
    /// Credits the peer granted that this host has not spent: K-frames it may send now.
    public internal(set) var sendCredits: Int
    /// Credits this host granted that the peer has not spent.
    public internal(set) var peerCredits: Int
    /// What the channel dropped when it ended (all zero while it is open).
    public private(set) var discarded = Discarded()

    // Sending: the SDU being segmented (what is left of it, and whether its first
    // K-frame went), then the SDUs behind it.
    var current: ArraySlice<UInt8>?
    var currentStarted = false
    var waiting = FIFOQueue<ArraySlice<UInt8>>()
    /// Octets of queued SDUs not yet in a K-frame.
    public internal(set) var queuedOctets = 0

    // Receiving.
    var reassembly: Reassembly?
    /// Per SDU delivered and not consumed, in order: the K-frames (credits) it holds.
    var unconsumed = FIFOQueue<Int>()
    /// Credits held by K-frames this host keeps: an SDU in reassembly, SDUs delivered
    /// and not consumed.
    public internal(set) var heldCredits = 0
    /// Credits released and not yet granted back.
    public internal(set) var creditsToReturn = 0

    /// A channel opened with `configuration`; throws when a value could not work.
    public init(_ configuration: CreditBasedChannelConfiguration) throws(CreditBasedChannelConfiguration.Invalid) {
        try configuration.validate()
        self.configuration = configuration
        sendCredits = Int(configuration.peerInitialCredits)
        peerCredits = Int(configuration.creditPolicy.window)
    }

    /// Whether the channel still carries SDUs.
    public var isOpen: Bool {
        if case .open = state { return true }
        return false
    }

    /// Why the channel ended, once it has.
    public var closeReason: CreditBasedChannelCloseReason? {
        switch state {
        case .open: return nil
        case let .closing(reason), let .closed(reason): return reason
        }
    }

    /// The answer Part A §4.28 gives the peer's Credit Based Reconfigure Request for this
    /// channel, which changes nothing: `.invalidDestinationCID` once the channel has ended,
    /// `.otherUnacceptableParameters` for sizes outside Enhanced Credit Based mode's ranges
    /// (§4.27), `.mtuReductionNotAllowed` for an MTU below the peer's present one (SDUs
    /// queued by it could no longer be sent); `.success` otherwise. The MPS may shrink;
    /// that it may do so on one channel of a request only needs every channel named, and
    /// is the signaling layer's to check.
    public func answer(toPeerReconfiguringTo mtu: UInt16, mps: UInt16) -> CreditBasedReconfigureResult {
        guard isOpen else { return .invalidDestinationCID }
        let mode = CreditBasedFlowControlMode.enhancedCreditBased
        guard mode.mtuRange.contains(mtu), mode.mpsRange.contains(mps) else { return .otherUnacceptableParameters }
        guard mtu >= configuration.peerMTU else { return .mtuReductionNotAllowed }
        return .success
    }

    /// The peer announced new sizes it receives (a Credit Based Reconfigure Request it
    /// sent, Part A §4.27). When `answer(toPeerReconfiguringTo:mps:)` is `.success`, SDUs
    /// up to `mtu` may be sent from now on, in K-frames up to `mps` (an SDU half sent goes
    /// on in K-frames of the new MPS); otherwise nothing changes. Returns that answer.
    @discardableResult
    public mutating func peerReconfigured(mtu: UInt16, mps: UInt16) -> CreditBasedReconfigureResult {
        let answer = answer(toPeerReconfiguringTo: mtu, mps: mps)
        if answer == .success {
            configuration.peerMTU = mtu
            configuration.peerMPS = mps
        }
        return answer
    }

    /// The sizes this host receives from now on (its own reconfiguration): frames are
    /// judged by them from the next one on. While its request is unanswered the host
    /// keeps the larger of the old and new sizes, since the peer may still send by the
    /// old ones.
    ///
    /// Going back to a smaller MTU (the peer refused the larger one, or never answered)
    /// below the SDU Length an SDU in reassembly announced ends the channel and throws
    /// `.violation(.sduLongerThanMTU)`, as its first K-frame would have under that MTU:
    /// the peer sent by sizes it did not accept, and the SDU would reach the application
    /// longer than the channel's MTU.
    public mutating func receiveSizes(mtu: UInt16, mps: UInt16) throws(CreditBasedChannelError) {
        configuration.mtu = mtu
        configuration.mps = mps
        if let partial = reassembly, partial.sduLength > Int(mtu) {
            throw violated(.sduLongerThanMTU(sduLength: partial.sduLength, mtu: Int(mtu)))
        }
    }

    /// The next thing to do on the signaling channel, or nil. Ask after every event: a
    /// disconnection is asked for once; credits when a batch is ready, or whatever is
    /// ready when the peer has none left.
    public mutating func nextAction() -> CreditBasedChannelAction? {
        switch state {
        case let .closing(reason):
            state = .closed(reason)
            return .disconnect(reason)
        case .closed:
            return nil
        case .open:
            guard creditsToReturn > 0,
                  creditsToReturn >= Int(configuration.creditPolicy.batch) || peerCredits == 0 else { return nil }
            let granted = creditsToReturn
            creditsToReturn = 0
            peerCredits += granted
            return .grantCredits(UInt16(granted))
        }
    }

    /// This host closes the channel: queued SDUs and a partial SDU are dropped, and the
    /// next action is `.disconnect(.localClose)`. Nothing once the channel has ended.
    @discardableResult
    public mutating func close() -> Discarded {
        end(.localClose, disconnect: true)
    }

    /// The peer disconnected the channel (its Disconnection Request, which the
    /// signaling layer answers): everything pending is dropped; no action follows.
    @discardableResult
    public mutating func peerDisconnected() -> Discarded {
        end(.peerDisconnected, disconnect: false)
    }

    /// The link under the channel went away: as `peerDisconnected()`.
    @discardableResult
    public mutating func linkLost() -> Discarded {
        end(.linkLost, disconnect: false)
    }

    /// Ends an open channel, once: records and returns what was dropped.
    mutating func end(_ reason: CreditBasedChannelCloseReason, disconnect: Bool) -> Discarded {
        guard case .open = state else { return Discarded() }
        state = disconnect ? .closing(reason) : .closed(reason)
        var dropped = Discarded()
        dropped.unsentSDUs = waiting.count + (current == nil ? 0 : 1)
        dropped.unsentOctets = queuedOctets
        dropped.partialSDUOctets = reassembly?.bytes.count ?? 0
        dropped.unconsumedSDUs = unconsumed.count
        current = nil
        _ = waiting.removeAll()
        queuedOctets = 0
        reassembly = nil
        _ = unconsumed.removeAll()
        heldCredits = 0
        creditsToReturn = 0
        discarded = dropped
        return dropped
    }

    /// Ends the channel for a rule the peer broke, and says so to the caller.
    mutating func violated(_ violation: CreditBasedChannelViolation) -> CreditBasedChannelError {
        _ = end(.violation(violation), disconnect: true)
        return .violation(violation)
    }
}
