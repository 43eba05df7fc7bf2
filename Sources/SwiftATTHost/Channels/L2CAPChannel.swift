import SwiftATTL2CAP
import Synchronization

/// One open L2CAP credit-based channel (Core 5.4 Vol 3 Part A §10.1): a reliable,
/// ordered stream of SDUs between two programs, flow-controlled by credits both ways.
///
///     let channel = try await peer.openChannel(psm: 0x0080)
///     try await channel.send(Array("hello".utf8))
///     for try await sdu in channel.sdus { … }
///     await channel.close()
///
/// Reading: `sdus` hands out each SDU once, in order. The peer's credits come back as
/// the reader takes SDUs, so a reader that stops reading stops the peer within the
/// window of `L2CAPChannelParameters.credits` K-frames — nothing piles up without bound.
/// Writing: `send` queues an SDU and returns; once the queue is at its limit it waits
/// until the peer's credits let K-frames leave. Closing (`close()`, or the peer, or the
/// link going down) ends the SDU stream and fails waiting writes. `Sendable`.
public final class L2CAPChannel: Sendable, CustomStringConvertible {
    /// The conversation with the controller the channel's link runs on.
    public let controller: Controller
    /// The HCI connection handle of the link the channel runs on.
    public let connectionHandle: UInt16
    /// The SPSM the channel was opened to.
    public let psm: SPSM
    /// LE Credit Based or Enhanced Credit Based flow control.
    public let mode: CreditBasedFlowControlMode
    /// This host's end: the CID the peer's K-frames arrive on.
    public let localCID: UInt16
    /// The peer's end: the CID this host's K-frames go to.
    public let peerCID: UInt16
    /// The largest SDU and K-frame payload this host receives (an Enhanced channel's
    /// grow with `reconfigure`).
    public var mtu: Int { sizes.mtu.load(ordering: .relaxed) }
    /// The largest K-frame payload this host receives.
    public var mps: Int { sizes.mps.load(ordering: .relaxed) }
    /// The largest SDU and K-frame payload the peer receives (an Enhanced channel's
    /// change when the peer reconfigures it).
    public var peerMTU: Int { sizes.peerMTU.load(ordering: .relaxed) }
    /// The largest K-frame payload the peer receives.
    public var peerMPS: Int { sizes.peerMPS.load(ordering: .relaxed) }
    /// The credits each side granted when the channel opened.
    public let initialCredits: Int
    /// The credits the peer granted when the channel opened.
    public let peerInitialCredits: Int

    /// Tells this channel from a later one that reuses its CID on the same link.
    let serial: Int
    let inbox = SDUInbox()
    let sizes: ChannelSizes
    private let closeAsked = Atomic<Bool>(false)

    static let serials = Atomic<Int>(0)
    static let writeIDs = Atomic<Int>(0)

    init(controller: Controller, handle: UInt16, psm: SPSM, mode: CreditBasedFlowControlMode,
         configuration: CreditBasedChannelConfiguration) {
        self.controller = controller
        connectionHandle = handle
        self.psm = psm
        self.mode = mode
        localCID = configuration.localCID
        peerCID = configuration.peerCID
        sizes = ChannelSizes(configuration)
        initialCredits = Int(configuration.creditPolicy.window)
        peerInitialCredits = Int(configuration.peerInitialCredits)
        serial = Self.serials.add(1, ordering: .relaxed).newValue
    }

    /// A channel nobody holds any more is closed, as a released notification stream
    /// unsubscribes.
    deinit {
        guard !closeAsked.load(ordering: .relaxed) else { return }
        let key = ChannelKey(handle: connectionHandle, cid: localCID, serial: serial)
        controller.loop.submit({ stack in stack.l2cap.creditBased.close(key, completion: nil) }, refuse: { _ in })
    }

    var key: ChannelKey { ChannelKey(handle: connectionHandle, cid: localCID, serial: serial) }

    public var description: String {
        "\(psm) channel 0x\(String(localCID, radix: 16, uppercase: true))→0x\(String(peerCID, radix: 16, uppercase: true)) on connection 0x\(String(connectionHandle, radix: 16, uppercase: true)) (MTU \(mtu)/\(peerMTU), MPS \(mps)/\(peerMPS))"
    }

    /// The SDUs the peer sends, in order, each once (iterate from one task at a time).
    /// The stream ends when the channel is closed by either side, and throws
    /// `L2CAPChannelError` when the link went down or the peer broke a rule.
    public var sdus: L2CAPSDUStream { L2CAPSDUStream(channel: self) }

    /// Queues `sdu` to send, waiting while the send queue is full (the peer has not
    /// granted the credits to drain it). Returns once the SDU is queued; its K-frames
    /// leave in order as credits allow. Throws `.sduTooLong` for an SDU over the peer's
    /// MTU, `.closed` / `.disconnected` once the channel has ended, `.cancelled` when the
    /// calling task is cancelled while waiting (the SDU is then not sent).
    public func send(_ sdu: [UInt8]) async throws(L2CAPChannelError) {
        let peerMTU = self.peerMTU
        guard sdu.count <= peerMTU else { throw .sduTooLong(length: sdu.count, peerMTU: peerMTU) }
        if let reason = inbox.closeReason { throw .closed(reason) }
        let id = Self.writeIDs.add(1, ordering: .relaxed).newValue
        let gate = CancellationGate()
        let loop = controller.loop
        let key = self.key
        let failure: L2CAPChannelError? = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let submitted = gate.submit {
                    loop.submit({ stack in
                        stack.l2cap.creditBased.write(sdu, id: id, on: key) { continuation.resume(returning: $0) }
                    }, refuse: { reason in continuation.resume(returning: .controllerStopped(reason)) })
                }
                if !submitted { continuation.resume(returning: .cancelled) }
            }
        } onCancel: {
            gate.cancel {
                loop.submit({ stack in stack.l2cap.creditBased.cancelWrite(id, on: key) }, refuse: { _ in })
            }
        }
        if let failure { throw failure }
    }

    /// Waits until every SDU queued so far has left in K-frames and the controller has
    /// reported them sent (or the channel ended).
    public func flush() async {
        let key = self.key
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            controller.loop.submit({ stack in
                stack.l2cap.creditBased.whenFlushed(key) { continuation.resume() }
            }, refuse: { _ in continuation.resume() })
        }
    }

    /// Closes the channel: what is queued goes out first, then an L2CAP Disconnection
    /// Request; returns once the peer answered (or did not in time, or the link went
    /// down). The SDU stream ends; later writes fail with `.closed`.
    public func close() async {
        closeAsked.store(true, ordering: .relaxed)
        let key = self.key
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            controller.loop.submit({ stack in
                stack.l2cap.creditBased.close(key) { continuation.resume() }
            }, refuse: { _ in continuation.resume() })
        }
    }

    /// Announces larger sizes this host receives on an Enhanced Credit Based channel
    /// (a Credit Based Reconfigure Request, Core 5.4 Vol 3 Part A §4.27): the MTU may
    /// only grow; the MPS may also shrink. Returns once the peer accepted; throws
    /// `.reconfigurationRefused` with its answer otherwise, and the sizes stay.
    public func reconfigure(mtu: UInt16, mps: UInt16) async throws(L2CAPChannelError) {
        guard mode == .enhancedCreditBased else { throw .invalidParameters("only an Enhanced Credit Based channel can be reconfigured") }
        guard Int(mtu) >= self.mtu else { throw .invalidParameters("the MTU may only grow (from \(self.mtu) to \(mtu) asked)") }
        let range = CreditBasedFlowControlMode.enhancedCreditBased.mpsRange
        guard range.contains(mps), mps <= L2CAPChannels.largestFramePayload else {
            throw .invalidParameters("MPS \(mps) is outside \(range.lowerBound)–\(L2CAPChannels.largestFramePayload)")
        }
        let key = self.key
        let result: L2CAPChannelError? = await withCheckedContinuation { continuation in
            controller.loop.submit({ stack in
                stack.l2cap.creditBased.reconfigure(key, mtu: mtu, mps: mps) { continuation.resume(returning: $0) }
            }, refuse: { continuation.resume(returning: .controllerStopped($0)) })
        }
        if let result { throw result }
    }

    /// What the channel has carried so far (the last figures once it is gone: nil only
    /// when the host stopped before it could say).
    public var statistics: L2CAPChannelStatistics? {
        get async {
            let key = self.key
            if let final = inbox.finalStatistics { return final }
            if let live = await controller.perform(orElse: nil, { stack in stack.l2cap.creditBased.statistics(of: key) }) {
                return live
            }
            // Released between the two looks: the loop turn that let the slot go kept
            // its figures in the inbox.
            return inbox.finalStatistics
        }
    }

    /// Why the channel ended; nil while it is open.
    public var closeReason: CreditBasedChannelCloseReason? { inbox.closeReason }

    /// The reader took `count` SDUs: their credits may go back.
    func consumed(_ count: Int) {
        let key = self.key
        controller.loop.submit({ stack in stack.l2cap.creditBased.consumed(count, on: key) }, refuse: { _ in })
    }
}

/// A channel's sizes, which the loop changes when either side reconfigures it and any
/// thread reads.
final class ChannelSizes: Sendable {
    let mtu: Atomic<Int>
    let mps: Atomic<Int>
    let peerMTU: Atomic<Int>
    let peerMPS: Atomic<Int>

    init(_ configuration: CreditBasedChannelConfiguration) {
        mtu = Atomic(Int(configuration.mtu))
        mps = Atomic(Int(configuration.mps))
        peerMTU = Atomic(Int(configuration.peerMTU))
        peerMPS = Atomic(Int(configuration.peerMPS))
    }

    func update(_ configuration: CreditBasedChannelConfiguration) {
        mtu.store(Int(configuration.mtu), ordering: .relaxed)
        mps.store(Int(configuration.mps), ordering: .relaxed)
        peerMTU.store(Int(configuration.peerMTU), ordering: .relaxed)
        peerMPS.store(Int(configuration.peerMPS), ordering: .relaxed)
    }
}

/// A channel on the loop: its link, its CID there, and which channel of that CID.
struct ChannelKey: Sendable, Hashable {
    var handle: UInt16
    var cid: UInt16
    var serial: Int
}
