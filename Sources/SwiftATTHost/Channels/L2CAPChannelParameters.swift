import SwiftATTGATT
import SwiftATTL2CAP

/// What this host offers when it opens or accepts a credit-based channel: the largest
/// SDU and K-frame it takes, the credits it grants, how much the application may queue,
/// and (for a listener) the security a link needs before a channel is accepted.
///
/// The defaults suit bulk transfer between two programs — a firmware image, a sensor
/// log: 2048-octet SDUs, K-frames of up to 1024 octets (an ACL buffer's worth or more,
/// so that a K-frame rarely costs more than one credit per kilobyte), and a window of
/// 64 credits, so that at most 64 KiB wait in this host for a reader that stopped.
public struct L2CAPChannelParameters: Sendable, Hashable {
    /// The largest SDU this host receives (23–65535; 64 at least for Enhanced Credit
    /// Based channels).
    public var mtu: UInt16
    /// The largest K-frame payload this host receives, the SDU Length included
    /// (23–65533; 64 at least for Enhanced Credit Based channels).
    public var mps: UInt16
    /// Credits granted when the channel opens, and the most the peer is ever owed:
    /// K-frames it may have in flight or waiting to be read here.
    public var credits: UInt16
    /// Credits go back once this many are ready (nil: half the window).
    public var creditBatch: UInt16?
    /// How much `send` may queue before a writer waits for the peer's credits.
    public var sendQueueLimit: CreditBasedChannelConfiguration.SendQueueLimit
    /// What the link must have before a listener accepts a channel (refused with
    /// Insufficient Authentication, Encryption or Encryption Key Size otherwise, which
    /// makes a requester that can pair do so and ask again). Ignored when opening.
    public var security: AttributePermissions.Access

    /// Parameters for a channel; the defaults suit a stream of large SDUs on an unsecured link.
    public init(mtu: UInt16 = 2048, mps: UInt16 = 1024, credits: UInt16 = 64, creditBatch: UInt16? = nil,
                sendQueueLimit: CreditBasedChannelConfiguration.SendQueueLimit = .init(),
                security: AttributePermissions.Access = .open) {
        self.mtu = mtu
        self.mps = mps
        self.credits = credits
        self.creditBatch = creditBatch
        self.sendQueueLimit = sendQueueLimit
        self.security = security
    }

    var creditPolicy: CreditReturnPolicy { CreditReturnPolicy(window: credits, batch: creditBatch) }

    /// Throws the first value the signaling exchange or the channel could not carry.
    func validate(_ mode: CreditBasedFlowControlMode) throws(L2CAPChannelError) {
        guard mode.mtuRange.contains(mtu) else { throw .invalidParameters("MTU \(mtu) is outside \(mode.mtuRange.lowerBound)–\(mode.mtuRange.upperBound)") }
        guard mode.mpsRange.contains(mps) else { throw .invalidParameters("MPS \(mps) is outside \(mode.mpsRange.lowerBound)–\(mode.mpsRange.upperBound)") }
        guard credits > 0 else { throw .invalidParameters("a window of 0 credits would never let the peer send") }
        if let creditBatch, !(1...credits).contains(creditBatch) {
            throw .invalidParameters("a credit batch of \(creditBatch) must be 1 to the window (\(credits))")
        }
        guard sendQueueLimit.sdus > 0, sendQueueLimit.octets > 0 else {
            throw .invalidParameters("the send queue limits must be at least 1")
        }
        guard mps <= L2CAPChannels.largestFramePayload else {
            throw .invalidParameters("MPS \(mps) is above the \(L2CAPChannels.largestFramePayload) octets this host reassembles")
        }
    }
}
