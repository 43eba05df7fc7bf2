import SwiftATTGATT

/// Service Changed (Core 5.4 Vol 3 Part G §7.1): the server says a range of its database
/// changed; the client drops what it cached there and discovers the range again.
extension Peer {
    /// Each change the server announces, after `database` has been corrected.
    public func serviceChanges() -> AsyncStream<GATTClientDatabase.Invalidation> {
        let (stream, continuation) = AsyncStream<GATTClientDatabase.Invalidation>.makeStream()
        let id = state.withLock { state in
            state.nextListener += 1
            state.serviceChangeListeners[state.nextListener] = continuation
            return state.nextListener
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.serviceChangeListeners.removeValue(forKey: id) }
        }
        return stream
    }

    /// Enables Service Changed indications if `database` has the characteristic, and
    /// starts applying them (once per peer).
    func watchServiceChanged(in database: GATTClientDatabase) async throws(GATTClientError) {
        guard let handle = database.serviceChangedValueHandle,
              let characteristic = database.characteristic(valueHandle: handle),
              characteristic.properties.contains(.indicate) else { return }
        let first = state.withLock { state in
            defer { state.watchingServiceChanged = true }
            return !state.watchingServiceChanged
        }
        guard first else { return }
        // Only this handle's values: a listener for all of them would take (and wake for)
        // every notification the application streams.
        let indications = values(of: handle)
        Task { [self] in
            do {
                for try await value in indications where value.isIndication {
                    await apply(serviceChanged: value)
                }
            } catch {}
            let listeners = state.withLock { state in
                defer { state.serviceChangeListeners.removeAll() }
                return Array(state.serviceChangeListeners.values)
            }
            for listener in listeners { listener.finish() }
        }
        try await setNotify(.indication, for: characteristic)
    }

    /// Applies one indication if it is Service Changed: rediscovers the range and tells
    /// the listeners. A malformed value means nothing cached can be trusted: all of it is
    /// discovered again.
    private func apply(serviceChanged value: GATTNotification) async {
        let invalidation: GATTClientDatabase.Invalidation? = state.withLock { state in
            do {
                return try state.database.applyServiceChanged(handle: value.handle, value: value.value)
            } catch {
                guard value.handle == state.database.serviceChangedValueHandle else { return nil }
                return state.database.invalidate(0x0001...0xFFFF)
            }
        }
        guard let invalidation else { return }
        let range = invalidation.rediscoveryRange
        if let found = try? await discover(range: range) {
            state.withLock { $0.database.merge(found) }
        }
        let listeners = state.withLock { Array($0.serviceChangeListeners.values) }
        for listener in listeners { listener.yield(invalidation) }
    }
}
