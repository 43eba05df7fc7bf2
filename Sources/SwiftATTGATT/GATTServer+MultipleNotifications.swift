import SwiftATTPDU

extension GATTServer {
    /// Sets several characteristics' values at once and returns what their subscribers
    /// are owed, as `update(_:value:only:)` would for each — except that a client that
    /// set the Multiple Handle Value Notifications bit of Client Supported Features
    /// (Core 5.4 Vol 3 Part G §7.2) and asked for notifications of two or more of them
    /// gets those in Multiple Handle Value Notifications (Part F §3.4.7.4): as many
    /// values per PDU as its ATT_MTU holds, in the order given. A value too long to share
    /// a PDU goes alone in a Handle Value Notification, cut as usual.
    public func update(_ updates: [(characteristic: GATTCharacteristic, value: [UInt8])],
                       only: ConnectionID? = nil) -> [(ConnectionID, ATTPDU)] {
        var out: [(ConnectionID, ATTPDU)] = []
        /// Per client taking them, the notifications to combine, with its ATT_MTU.
        var combined: [ConnectionID: (mtu: Int, tuples: [ATTTupleList.Tuple])] = [:]
        var order: [ConnectionID] = []
        for (characteristic, value) in updates {
            guard let entry = database.characteristicsByObject[ObjectIdentifier(characteristic)] else { continue }
            push(entry, value: value, only: only) { id, pdu in
                guard case let .handleValueNotification(notification) = pdu, takesMultipleNotifications(id) else {
                    return out.append((id, pdu))
                }
                if combined[id] == nil {
                    order.append(id)
                    combined[id] = (connections[id]?.mtu ?? ATTLimits.defaultMTU, [])
                }
                combined[id]?.tuples.append(ATTTupleList.Tuple(handle: notification.handle, value: notification.value))
            }
        }
        for id in order {
            guard let (mtu, tuples) = combined[id] else { continue }
            for pdu in Self.pack(tuples, mtu: mtu) { out.append((id, pdu)) }
        }
        return out
    }

    /// Whether client `id` said it takes Multiple Handle Value Notifications.
    func takesMultipleNotifications(_ id: ConnectionID) -> Bool {
        guard let features = connections[id]?.clientFeatures.first else { return false }
        return GATTClientFeatures(rawValue: features).contains(.multipleHandleValueNotifications)
    }

    /// Notifications packed into as few PDUs as `mtu` allows: each tuple costs its
    /// handle and length (4 octets) and its value; a PDU holding one value is sent as a
    /// Handle Value Notification (a Multiple one carries two at least).
    static func pack(_ tuples: [ATTTupleList.Tuple], mtu: Int) -> [ATTPDU] {
        var pdus: [ATTPDU] = []
        var batch: [ATTTupleList.Tuple] = []
        var length = 1
        func flush() {
            if batch.count == 1 {
                pdus.append(.handleValueNotification(HandleValueNotification(handle: batch[0].handle ?? 0, value: batch[0].value)))
            } else if batch.count > 1 {
                pdus.append(.multipleHandleValueNotification(MultipleHandleValueNotification(batch)))
            }
            batch.removeAll()
            length = 1
        }
        for tuple in tuples {
            let cost = 4 + tuple.value.count
            if length + cost > mtu { flush() }
            if 1 + cost > mtu {
                // Too long to share: alone, as `update` sends it (already cut to ATT_MTU−3).
                pdus.append(.handleValueNotification(HandleValueNotification(handle: tuple.handle ?? 0, value: tuple.value)))
                continue
            }
            batch.append(tuple)
            length += cost
        }
        flush()
        return pdus
    }
}
