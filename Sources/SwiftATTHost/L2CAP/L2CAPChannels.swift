import SwiftATTCore
import SwiftATTHCI
import SwiftATTL2CAP

/// L2CAP on one controller's connections (Core 5.4 Vol 3 Part A): ACL data recombined
/// into frames and routed by channel, frames fragmented into ACL packets on the way out,
/// and the fixed channels this floor answers itself.
///
/// The second floor of a host on its loop thread, between the HCI conversation below and
/// the attribute links and the security manager above. Frames for the Attribute Protocol
/// and the Security Manager go up as `receive(_:)`'s result; LE signalling (connection
/// parameter updates, command rejects) is answered here, and so is where credit-based
/// channels belong: dynamic channels found by their CID beside the fixed ones in `route`.
///
/// Loop-confined. The recombiner is `@exclusivity(unchecked)` (every inbound ACL packet
/// reads it): only the loop thread touches it, and its own methods, the only code run
/// while it is being mutated, cannot reach this object.
final class L2CAPChannels {
    /// How many drop reasons `droppedFrames` keeps.
    static let dropLogLimit = 64
    /// The longest frame payload reassembled: an ATT_MTU of 517 fits, and so does a
    /// credit-based channel's MPS up to this.
    static let largestFramePayload: UInt16 = 2048

    private let hci: HCIConversation
    @exclusivity(unchecked) private var recombiner = L2CAPRecombiner(maximumPayloadLength: Int(largestFramePayload))
    /// Reasons inbound ACL was dropped, most recent last (bounded), for diagnostics.
    private(set) var droppedFrames: [L2CAPRecombiner.DropReason] = []

    /// The credit-based channels on this controller's links. Made once this floor is
    /// (they hold it, unowned), and never replaced: asked several times a turn, they are
    /// a stored reference, unchecked like the recombiner (a `lazy var` cannot be).
    @exclusivity(unchecked) private(set) var creditBased: CreditBasedChannels!

    init(hci: HCIConversation) {
        self.hci = hci
        creditBased = CreditBasedChannels(hci: hci, l2cap: self)
    }

    // MARK: Input

    /// Takes the bytes of one ACL data packet. Returns the frame it completes if that
    /// frame is for a floor above (the Attribute Protocol, the Security Manager); frames
    /// for the channels answered here are handled, partial frames held, malformed data
    /// dropped.
    @inline(__always)
    func receive(_ packet: ArraySlice<UInt8>) -> L2CAPFrame? {
        let frame: L2CAPFrame
        // The usual case, a frame in one packet, without the parse and the outcome.
        if let whole = recombiner.wholeFrame(in: packet) {
            frame = L2CAPFrame(connectionHandle: whole.handle, channel: whole.channel, payload: packet[whole.payload])
        } else {
            guard let assembled = recombine(packet) else { return nil }
            frame = assembled
        }
        if frame.channel == L2CAPChannelIdentifier.attribute || frame.channel == L2CAPChannelIdentifier.securityManager {
            return frame
        }
        route(frame)
        return nil
    }

    private func recombine(_ packet: ArraySlice<UInt8>) -> L2CAPFrame? {
        guard let acl = try? ACLDataPacket(parsing: packet) else { return nil }
        let outcome = recombiner.push(acl)
        if let dropped = outcome.dropped {
            droppedFrames.append(dropped)
            if droppedFrames.count > Self.dropLogLimit { droppedFrames.removeFirst() }
        }
        return outcome.frame
    }

    /// The fixed channels answered on this floor (Core 5.4 Vol 3 Part A §2.1); a frame
    /// on any other channel is dropped.
    private func route(_ frame: L2CAPFrame) {
        switch frame.channel {
        case L2CAPChannelIdentifier.leSignaling:
            signal(frame)
        case L2CAPChannelIdentifier.leDynamicRange:
            creditBased.receive(frame.payload, channel: frame.channel, on: frame.connectionHandle)
        default:
            break
        }
    }

    /// LE signalling (Part A §4): credit-based channels' commands go to `creditBased`;
    /// the rest is answered here — what this host does not do is rejected, and as
    /// central a peripheral's acceptable connection parameters are applied (LE
    /// Connection Update).
    private func signal(_ frame: L2CAPFrame) {
        if let packet = try? LESignalingPacket(parsing: frame.payload), let command = try? LESignalingCommand(packet),
           creditBased.handle(command, identifier: packet.identifier, on: frame.connectionHandle) {
            return
        }
        let isCentral = hci.connections[frame.connectionHandle]?.role == .central
        let outcome = LESignalingResponder.handle(frame.payload, isCentral: isCentral)
        if let reply = outcome.reply {
            send(channel: L2CAPChannelIdentifier.leSignaling, payload: EncodedBytes(reply), handle: frame.connectionHandle)
        }
        if let parameters = outcome.acceptedParameters {
            let update = LEConnectionUpdate(
                connectionHandle: frame.connectionHandle,
                connectionParameters: LEConnectionParameters(
                    intervalMin: parameters.intervalMin, intervalMax: parameters.intervalMax,
                    maxLatency: parameters.peripheralLatency, supervisionTimeout: parameters.timeoutMultiplier))
            hci.send(update.packet, timeout: .seconds(3)) { _ in }
        }
    }

    // MARK: Output

    /// Sends a frame on a connection, fragmented to the controller's ACL buffers.
    ///
    /// The packets are queued in the HCI conversation; the loop sends what the controller
    /// has buffers for at the end of its turn, so that the frames of a batch of work (a
    /// run of `updateValue` calls) reach the controller in one write. `payload` is
    /// encoded straight into the packets (a PDU needs no array of its own).
    @inline(__always)
    func send(channel: UInt16, payload: some ByteEncodable, handle: UInt16) {
        guard let bufferLength = hci.aclBufferLength else { return }
        L2CAPFragmenter.encodePackets(channel: channel, payload: payload, handle: handle, bufferLength: bufferLength) { packet in
            hci.enqueueACL(packet, on: handle)
        }
    }

    // MARK: Connections

    /// The connection is gone: its partial frames and its channels go with it.
    func disconnected(_ handle: UInt16, reason: HCIStatus?) {
        recombiner.reset(handle: handle)
        creditBased.disconnected(handle, reason: reason)
    }

    /// The controller was reset: every connection's partial frames and channels go.
    func controllerReset() {
        recombiner = L2CAPRecombiner(maximumPayloadLength: recombiner.maximumPayloadLength)
        for handle in Array(creditBased.links.keys) { creditBased.disconnected(handle, reason: nil) }
    }

    /// What the inbound path holds and has thrown away.
    var diagnostics: HostDiagnostics {
        HostDiagnostics(partialFrames: recombiner.pendingCount, bufferedFrameOctets: recombiner.bufferedByteCount,
                        maximumFramePayload: recombiner.maximumPayloadLength, droppedFrames: droppedFrames)
    }
}
