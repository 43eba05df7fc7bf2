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
    public let controller: Controller
    /// The HCI connection handle of the link the channel runs on.
    public let connectionHandle: UInt16
    public let psm: SPSM
    public let mode: CreditBasedFlowControlMode
    /// This host's end: the CID the peer's K-frames arrive on.
    public let localCID: UInt16
    /// The peer's end: the CID this host's K-frames go to.
    public let peerCID: UInt16
    /// The largest SDU and K-frame payload this host receives.
    public let mtu: Int
    public let mps: Int
    /// The largest SDU and K-frame payload the peer receives.
    public let peerMTU: Int
    public let peerMPS: Int
    /// The credits each side granted when the channel opened.
    public let initialCredits: Int
    public let peerInitialCredits: Int

    /// Tells this channel from a later one that reuses its CID on the same link.
    let serial: Int
    let inbox = SDUInbox()
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
        mtu = Int(configuration.mtu)
        mps = Int(configuration.mps)
        peerMTU = Int(configuration.peerMTU)
        peerMPS = Int(configuration.peerMPS)
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
        guard sdu.count <= peerMTU else { throw .sduTooLong(length: sdu.count, peerMTU: peerMTU) }
        if let reason = inbox.closeReason { throw Self.endError(reason) }
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

    /// Why the channel ended; nil while it is open.
    public var closeReason: CreditBasedChannelCloseReason? { inbox.closeReason }

    /// What a call on a channel that ended throws: the link's loss as `.disconnected`.
    static func endError(_ reason: CreditBasedChannelCloseReason) -> L2CAPChannelError {
        .closed(reason)
    }

    /// The reader took `count` SDUs: their credits may go back.
    func consumed(_ count: Int) {
        let key = self.key
        controller.loop.submit({ stack in stack.l2cap.creditBased.consumed(count, on: key) }, refuse: { _ in })
    }
}

/// A channel on the loop: its link, its CID there, and which channel of that CID.
struct ChannelKey: Sendable, Hashable {
    var handle: UInt16
    var cid: UInt16
    var serial: Int
}
