import SwiftATTGATT

/// The loop's side of `Peripheral.updateValue`: values the `UpdateGate` admitted are
/// applied here in the order they were admitted, and the gate hears when the
/// subscribers' transmit queues fill and empty.
extension AttributeLinks {
    /// Stores each of `values` and notifies or indicates it to every subscriber of
    /// `characteristic`, truncated to each link's ATT_MTU−3: a run of values the
    /// application handed the loop back to back, in order (the server finds the
    /// characteristic and its subscribers once for the run).
    ///
    /// The gate admitted them before the loop could see the queues, so they are sent
    /// even onto a full link: a link overshoots `transmitQueueLimit` by at most the
    /// gate's capacity, and indications are held back early enough (`isCrowded`) that
    /// the bearer's queue never refuses one.
    func applyUpdates(_ values: [[UInt8]], for characteristic: GATTCharacteristic) {
        updatesApplied += values.count
        guard let server = gattServer else { return }
        server.update(characteristic, values: values) { id, pdu in
            guard let link = link(id.rawValue) else { return }
            push(pdu, on: link)
        }
    }

    /// Tells the gate how things stand after buffers or indication slots were freed:
    /// congested while any link is still full.
    func signalRoomIfWaiting() {
        guard updateGate != nil else { return }
        settleUpdates(applied: 0, congested: links.contains(where: isCrowded))
    }

    /// Gives the gate back the slots of the values applied since it last heard, and of
    /// `applied` more that will never be applied (the loop stopped first), and tells it
    /// whether the links are congested.
    func settleUpdates(applied: Int, congested: Bool) {
        let applied = applied + updatesApplied
        updatesApplied = 0
        if updateGate?.settle(applied: applied, congested: congested) == true { emit(.readyToUpdate) }
    }

    /// Whether more updates now would overfill `link`: its ACL transmit queue is at
    /// the limit, or its indication queue has less room than the gate can still admit.
    func isCrowded(_ link: AttributeLink) -> Bool {
        if hci.queuedACLCount(on: link.handle) >= transmitQueueLimit { return true }
        let headroom = updateGate?.capacity ?? 0
        return link.withBearer { $0.queuedIndications + headroom >= $0.queueLimit }
    }
}
