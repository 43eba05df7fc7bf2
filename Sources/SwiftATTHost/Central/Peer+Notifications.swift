import SwiftATTCore
import SwiftATTGATT

/// Notifications and indications (Core 5.4 Vol 3 Part G §4.10, §4.11) and the Client
/// Characteristic Configuration that asks for them (§4.12.3).
extension Peer {
    /// Subscribes to `characteristic` and returns its values as they arrive: notified if
    /// it notifies, else indicated (each indication is confirmed as it arrives). The
    /// listener is in place before the descriptor is written, so the first value cannot
    /// be missed. When the stream is released, or the task iterating it is cancelled,
    /// the subscription ends (0x0000 is written to the descriptor); to end it sooner
    /// while keeping the stream, `setNotify([], for:)`. The stream ends with
    /// `GATTClientError.disconnected` when the link goes down.
    ///
    /// Finds the Client Characteristic Configuration descriptor in `database`, or
    /// discovers the characteristic's descriptors first.
    public func notifications(of characteristic: GATTClient.Characteristic) async throws(GATTClientError) -> GATTNotificationStream {
        let configuration: GATTClientConfiguration
        if characteristic.properties.contains(.notify) {
            configuration = .notification
        } else if characteristic.properties.contains(.indicate) {
            configuration = .indication
        } else {
            throw .notSupported("characteristic \(characteristic.uuid) at \(Hex.handle(characteristic.valueHandle)) neither notifies nor indicates")
        }
        let descriptor = try await clientConfigurationHandle(of: characteristic)
        let loop = controller.loop
        let handle = self.handle
        let stream = values(of: characteristic.valueHandle) {
            // Unsubscribing is queued on the loop at once, behind whatever the link runs,
            // without needing a task to run it; on a link that is gone it fails at once.
            let id = Self.procedureIDs.add(1, ordering: .relaxed).newValue
            loop.submit({ stack in
                stack.attributes.run(ProcedureRun(id: id, make: { mtu in
                    GATTClient.WriteClientCharacteristicConfiguration(handle: descriptor, configuration: [], mtu: mtu)
                }, completion: { _ in }), on: handle)
            }, refuse: { _ in })
        }
        // On a failure the stream is dropped unused, which removes its listener.
        try await run { mtu in
            GATTClient.WriteClientCharacteristicConfiguration(characteristic, descriptorHandle: descriptor, configuration: configuration, mtu: mtu)
        }
        return stream
    }

    /// Writes `characteristic`'s Client Characteristic Configuration: CoreBluetooth's
    /// `setNotifyValue(_:for:)`. Values then arrive on `values()` streams.
    public func setNotify(_ configuration: GATTClientConfiguration, for characteristic: GATTClient.Characteristic) async throws(GATTClientError) {
        let descriptor = try await clientConfigurationHandle(of: characteristic)
        try await run { mtu in
            GATTClient.WriteClientCharacteristicConfiguration(characteristic, descriptorHandle: descriptor, configuration: configuration, mtu: mtu)
        }
    }

    /// Every value the peer notifies or indicates (of one value handle, or of all), from
    /// now until the link goes down. Subscribes to nothing: see `notifications(of:)`.
    public func values(of valueHandle: UInt16? = nil) -> GATTNotificationStream {
        values(of: valueHandle, onEnd: {})
    }

    func values(of valueHandle: UInt16?, onEnd: @escaping @Sendable () -> Void) -> GATTNotificationStream {
        let channel = NotificationChannel(limit: 65_536)
        let id = Self.procedureIDs.add(1, ordering: .relaxed).newValue
        let loop = controller.loop
        let handle = self.handle
        let subscription = NotificationSubscription(channel: channel) { cancelled in
            loop.submit({ stack in stack.attributes.removeNotificationListener(id, on: handle) }, refuse: { _ in })
            if cancelled { onEnd() }
        }
        loop.submit({ stack in stack.attributes.addNotificationListener(id, on: handle, valueHandle: valueHandle, channel) },
                    refuse: { reason in
                        channel.finish(throwing: GATTClientError.disconnected(.controllerStopped(reason)))
                    })
        return GATTNotificationStream(subscription: subscription)
    }

    /// The handle of `characteristic`'s Client Characteristic Configuration descriptor,
    /// discovering its descriptors if they are not known yet.
    func clientConfigurationHandle(of characteristic: GATTClient.Characteristic) async throws(GATTClientError) -> UInt16 {
        if let known = database.clientConfigurationHandle(of: characteristic) { return known }
        let descriptors = try await discoverDescriptors(of: characteristic)
        guard let found = descriptors.first(where: { $0.uuid == GATTAttributeType.clientCharacteristicConfiguration }) else {
            throw .notSupported("characteristic \(characteristic.uuid) at \(Hex.handle(characteristic.valueHandle)) has no Client Characteristic Configuration descriptor")
        }
        return found.handle
    }
}
