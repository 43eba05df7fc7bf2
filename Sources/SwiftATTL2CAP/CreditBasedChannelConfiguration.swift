/// What a credit-based channel is opened with: both ends' identifiers, the sizes each
/// end receives, the credits each end granted, and this host's own policies. The
/// signaling exchange (LE Credit Based Connection, Core 5.4 Vol 3 Part A §4.22–4.23, or
/// Credit Based Connection, §4.25–4.26) supplies the peer's half.
public struct CreditBasedChannelConfiguration: Sendable, Hashable {
    /// The channel's CID on this host: the peer's K-frames arrive on it.
    public var localCID: UInt16
    /// The channel's CID on the peer: this host's K-frames go to it.
    public var peerCID: UInt16
    /// The largest SDU this host accepts (23–65535).
    public var mtu: UInt16
    /// The largest K-frame payload this host accepts, SDU Length included (23–65533).
    public var mps: UInt16
    /// The largest SDU the peer accepts.
    public var peerMTU: UInt16
    /// The largest K-frame payload the peer accepts.
    public var peerMPS: UInt16
    /// The credits the peer granted when the channel opened.
    public var peerInitialCredits: UInt16
    /// This host's receive window and how it returns credits; its window is the
    /// initial credits this host granted.
    public var creditPolicy: CreditReturnPolicy
    /// How much the application may queue to send before `send` refuses.
    public var sendQueueLimit: SendQueueLimit

    /// A configuration as the connection request and response settled it;
    /// `CreditBasedChannel.init` validates it.
    public init(localCID: UInt16, peerCID: UInt16, mtu: UInt16, mps: UInt16, peerMTU: UInt16, peerMPS: UInt16,
                peerInitialCredits: UInt16, creditPolicy: CreditReturnPolicy = CreditReturnPolicy(),
                sendQueueLimit: SendQueueLimit = SendQueueLimit()) {
        self.localCID = localCID
        self.peerCID = peerCID
        self.mtu = mtu
        self.mps = mps
        self.peerMTU = peerMTU
        self.peerMPS = peerMPS
        self.peerInitialCredits = peerInitialCredits
        self.creditPolicy = creditPolicy
        self.sendQueueLimit = sendQueueLimit
    }

    /// The bound on what waits to be sent, so that an async writer waits for credits
    /// instead of buffering without limit. Both counts are of SDUs not yet fully handed
    /// out as K-frames; one SDU is always accepted into an empty queue, however long.
    public struct SendQueueLimit: Sendable, Hashable {
        /// SDUs waiting (empty SDUs cost no octets, so they are counted too).
        public var sdus: Int
        /// Octets of SDU data waiting.
        public var octets: Int

        /// A limit of `sdus` SDUs and `octets` octets waiting.
        public init(sdus: Int = 32, octets: Int = 65_536) {
            self.sdus = sdus
            self.octets = octets
        }
    }

    /// The least MTU and MPS (§4.22): every LE device takes 23-octet SDUs and K-frames.
    public static let minimumMTU: UInt16 = 23
    /// The MPS values §4.22 allows.
    public static let mpsRange: ClosedRange<UInt16> = 23...65533
    /// The dynamically allocated LE CIDs (§2.1 Table 2.3).
    public static let dynamicCIDRange: ClosedRange<UInt16> = 0x0040...0x007F

    /// Why a configuration cannot run a channel. The signaling layer refuses such
    /// parameters from a peer (Unacceptable Parameters, Invalid Source CID); this is
    /// the channel's own guard, so its segmentation never meets an MPS too small to
    /// make progress.
    public enum Invalid: Error, Sendable, Hashable, CustomStringConvertible {
        /// A CID outside the dynamically allocated range.
        case cidOutOfRange(UInt16)
        /// An MTU below the least every LE device takes (23).
        case mtuTooSmall(UInt16)
        /// An MPS outside 23–65533.
        case mpsOutOfRange(UInt16)
        /// A receive window of no credits: the peer could never send.
        case windowEmpty
        /// A credit batch of zero, or larger than the window: credits would never go back.
        case batchOutOfRange(batch: UInt16, window: UInt16)
        /// A send queue limit of zero SDUs or octets.
        case sendQueueLimitNotPositive

        public var description: String {
            switch self {
            case let .cidOutOfRange(cid):
                return "CID 0x\(String(cid, radix: 16)) is outside the LE dynamic range 0x0040–0x007F"
            case let .mtuTooSmall(mtu): return "MTU \(mtu) is below the minimum of 23"
            case let .mpsOutOfRange(mps): return "MPS \(mps) is outside 23–65533"
            case .windowEmpty: return "a credit window of 0 would never let the peer send"
            case let .batchOutOfRange(batch, window):
                return "a credit batch of \(batch) must be 1 to the window (\(window))"
            case .sendQueueLimitNotPositive: return "the send queue limits must be at least 1"
            }
        }
    }

    /// Throws the first value a channel could not run with.
    public func validate() throws(Invalid) {
        for cid in [localCID, peerCID] where !Self.dynamicCIDRange.contains(cid) { throw .cidOutOfRange(cid) }
        for value in [mtu, peerMTU] where value < Self.minimumMTU { throw .mtuTooSmall(value) }
        for value in [mps, peerMPS] where !Self.mpsRange.contains(value) { throw .mpsOutOfRange(value) }
        guard creditPolicy.window > 0 else { throw .windowEmpty }
        guard (1...creditPolicy.window).contains(creditPolicy.batch) else {
            throw .batchOutOfRange(batch: creditPolicy.batch, window: creditPolicy.window)
        }
        guard sendQueueLimit.sdus > 0, sendQueueLimit.octets > 0 else { throw .sendQueueLimitNotPositive }
    }
}
