import GATT

/// The loop's side of `Peripheral.updateValue`: values the `UpdateGate` admitted are
/// applied here in the order they were admitted, and the gate hears when the
/// subscribers' transmit queues fill and empty.
extension ControllerCore {
    /// Stores `value` and notifies or indicates it to every subscriber of
    /// `characteristic`, truncated to each link's ATT_MTU−3.
    ///
    /// The gate admitted it before the loop could see the queues, so it is sent even
    /// onto a full link: a link overshoots `transmitQueueLimit` by at most the gate's
    /// capacity, and indications are held back early enough (`isCrowded`) that the
    /// bearer's queue never refuses one.
    func applyUpdate(_ value: [UInt8], for characteristic: GATTCharacteristic) {
        guard let server = gattServer else { return settleUpdates(applied: 1, congested: false) }
        var crowded = false
        server.update(characteristic, value: value) { id, pdu in
            guard let link = links[id.rawValue] else { return }
            push(pdu, on: link)
            crowded = crowded || isCrowded(link)
        }
        settleUpdates(applied: 1, congested: crowded)
    }

    /// Tells the gate how things stand after buffers or indication slots were freed:
    /// congested while any link is still full.
    func signalRoomIfWaiting() {
        guard updateGate != nil else { return }
        settleUpdates(applied: 0, congested: links.values.contains(where: isCrowded))
    }

    /// A value the gate admitted will never be applied (the loop stopped first).
    func settleUpdates(applied: Int, congested: Bool) {
        if updateGate?.settle(applied: applied, congested: congested) == true { emit(.readyToUpdate) }
    }

    /// Whether more updates now would overfill `link`: its ACL transmit queue is at
    /// the limit, or its indication queue has less room than the gate can still admit.
    func isCrowded(_ link: AttributeLink) -> Bool {
        if (acl?.queuedCount(on: link.handle) ?? 0) >= transmitQueueLimit { return true }
        let headroom = updateGate?.capacity ?? 0
        return link.bearer.queuedIndications + headroom >= link.bearer.queueLimit
    }
}
