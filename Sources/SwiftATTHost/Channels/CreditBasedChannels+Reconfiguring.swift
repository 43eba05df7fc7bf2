import SwiftATTCore
import SwiftATTL2CAP

/// Reconfiguration of Enhanced Credit Based channels (Core 5.4 Vol 3 Part A §4.27–4.28):
/// a side announces larger sizes it receives; the MTU may only grow, the MPS may shrink
/// on one channel at a time.
extension CreditBasedChannels {
    /// This host receives `mtu`/`mps` on the channel from now on, once the peer agrees.
    /// Until the answer, frames by the old or the new sizes are taken.
    func reconfigure(_ key: ChannelKey, mtu: UInt16, mps: UInt16, completion: @escaping (L2CAPChannelError?) -> Void) {
        guard let slot = slot(key), slot.machine.isOpen else {
            return completion(.closed(slot(key)?.machine.closeReason ?? .localClose))
        }
        guard slot.reconfiguring == nil else {
            return completion(.invalidParameters("a reconfiguration of this channel is already waiting for its answer"))
        }
        guard var link = links[key.handle] else { return completion(.disconnected(nil)) }
        let current = slot.machine.configuration
        slot.reconfiguring = (mtu, mps)
        receiveSizes(slot, mtu: max(current.mtu, mtu), mps: max(current.mps, mps))
        let identifier = link.takeIdentifier()
        link.pending[identifier] = .reconfigure(channels: [key], mtu: mtu, mps: mps,
                                                deadline: MonotonicInstant.readBootClock() + responseTimeout, completion: completion)
        links[key.handle] = link
        timedCount += 1
        signal(.creditBasedReconfigureRequest(CreditBasedReconfigureRequest(mtu: mtu, mps: mps, destinationCIDs: [slot.localCID])),
               identifier: identifier, on: key.handle)
    }

    /// The answer to this host's reconfiguration (nil result: none came, or a reject).
    func reconfigured(_ channels: [ChannelKey], mtu: UInt16, mps: UInt16, failure: L2CAPChannelError?) {
        for key in channels {
            guard let slot = slot(key) else { continue }
            slot.reconfiguring = nil
            if failure == nil {
                receiveSizes(slot, mtu: mtu, mps: mps)
                slot.sizes.update(slot.machine.configuration)
                slot.sink?.resized()
            } else {
                // Back to the sizes the public channel still reports.
                receiveSizes(slot, mtu: UInt16(slot.sizes.mtu.load(ordering: .relaxed)),
                             mps: UInt16(slot.sizes.mps.load(ordering: .relaxed)))
            }
        }
    }

    /// The channel receives by these sizes from now on. Back to a smaller MTU than an SDU
    /// in reassembly announced (the peer sent by sizes it then refused), it ends.
    func receiveSizes(_ slot: ChannelSlot, mtu: UInt16, mps: UInt16) {
        do throws(CreditBasedChannelError) {
            try slot.machine.receiveSizes(mtu: mtu, mps: mps)
        } catch {
            if case let .violation(violation) = error { violated(slot, violation) }
        }
    }

    /// The peer's reconfiguration of its channels to this host, named by its own CIDs:
    /// the answer §4.28 gives, the new sizes applied on success.
    func peerReconfigures(_ request: CreditBasedReconfigureRequest, on handle: UInt16) -> CreditBasedReconfigureResult {
        do throws(CreditBasedParameterError) {
            try request.validate()
        } catch where error.field == .mtu || error.field == .mps {
            return error.creditBasedReconfigureResult
        } catch {
            return .invalidDestinationCID
        }
        guard let link = links[handle] else { return .invalidDestinationCID }
        var slots: [ChannelSlot] = []
        for cid in request.destinationCIDs {
            guard let slot = link.channel(peerCID: cid), slot.mode == .enhancedCreditBased, slot.machine.isOpen else {
                return .invalidDestinationCID
            }
            slots.append(slot)
        }
        for slot in slots {
            let answer = slot.machine.answer(toPeerReconfiguringTo: request.mtu, mps: request.mps)
            guard answer == .success else { return answer }
        }
        if slots.count > 1 {
            for slot in slots where request.mps < slot.machine.configuration.peerMPS { return .mpsReductionNotAllowed }
        }
        for slot in slots {
            slot.machine.peerReconfigured(mtu: request.mtu, mps: request.mps)
            slot.sizes.update(slot.machine.configuration)
            slot.sink?.resized()
            pump(slot)
        }
        return .success
    }
}
