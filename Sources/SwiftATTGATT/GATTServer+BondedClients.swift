import SwiftATTCore

// Bonded clients: what the server keeps for them between connections, handed to its
// owner to store with the bond (`GATTBondedClient`) and taken back in a later run.
// Core 5.4 Vol 3 Part G §2.5.2.1 (change-awareness), §3.3.3.3 (configurations that
// persist across connections), §7.1 (Service Changed), §7.3 (Database Hash).
extension GATTServer {
    /// The identity addresses of the bonded clients the server keeps state for, away or
    /// connected.
    public var bondedIdentities: Set<BluetoothAddress> {
        var identities = Set(bonds.keys)
        for state in connections.values {
            if let bond = state.bond { identities.insert(bond) }
        }
        return identities
    }

    /// What the server keeps for the bonded client `identity`, recorded against the
    /// database it serves now: while the client is connected, its connection's state
    /// (with the Service Changed ranges it has not confirmed as owed); while it is away,
    /// what was kept when it left. `nil` for a client the server keeps nothing for.
    public func bondedClient(_ identity: BluetoothAddress) -> GATTBondedClient? {
        if let id = connectionOrder.first(where: { connections[$0]?.bond == identity }), let state = connections[id] {
            // As `disconnect` will keep it.
            var owed = bonds[identity]?.pendingServiceChange
            for range in state.serviceChangesUnconfirmed { owed = Self.merge(owed, range) }
            return exported(BondedState(subscriptions: state.subscriptions, clientFeatures: state.clientFeatures,
                                        changeAware: state.changeAware, pendingServiceChange: owed))
        }
        return bonds[identity].map(exported)
    }

    /// Takes up what was kept for the bonded client `identity` in an earlier run, as if
    /// it had just left; returns what the server keeps of it.
    ///
    /// Recorded against the database served now (the same Database Hash), everything
    /// applies as recorded. Against another one, a subscription is kept only when its
    /// value handle still holds a characteristic with the same UUID that allows it, the
    /// client is change-unaware, and a Service Changed indication of 0x0001–0xFFFF is
    /// owed to it: handles it cached may name something else now (Part G §2.5.2.1,
    /// §7.1). Either way, Service Changed is owed only to a client subscribed to its
    /// indications — no other can be told. When what is kept differs from `client`, the
    /// client is in `bondedClientChanges`, for the owner to store the reconciled state.
    ///
    /// A client connected now keeps its connection's state, which is what is kept when
    /// it disconnects.
    @discardableResult
    public func restoreBondedClient(_ client: GATTBondedClient, for identity: BluetoothAddress) -> GATTBondedClient {
        var state = BondedState(subscriptions: [:], clientFeatures: client.clientSupportedFeatures,
                                changeAware: client.changeAware, pendingServiceChange: client.serviceChangeOwed)
        for subscription in client.subscriptions where !subscription.configuration.isEmpty {
            guard let entry = database.characteristicsByValueHandle[subscription.valueHandle],
                  entry.characteristic.uuid == subscription.characteristic,
                  entry.allowedConfiguration.isSuperset(of: subscription.configuration) else { continue }
            state.subscriptions[subscription.valueHandle] = subscription.configuration
        }
        if client.databaseHash != database.databaseHash {
            state.changeAware = false
            state.pendingServiceChange = 0x0001...0xFFFF
        }
        if !takesServiceChanged(state.subscriptions) { state.pendingServiceChange = nil }
        bonds[identity] = state
        let kept = exported(state)
        if kept != client { bondedClientChanges.insert(identity) }
        return kept
    }

    /// Forgets what was kept for a bonded client (its bond was removed). A connection
    /// with it goes on, its configuration ending with it as a client's that never bonded.
    public func forgetBond(_ bond: BluetoothAddress) {
        bonds[bond] = nil
        for id in connectionOrder where connections[id]?.bond == bond {
            connections[id]?.bond = nil
        }
        bondedClientChanges.remove(bond)
    }

    /// The bonded clients whose kept state changed since the last call
    /// (`bondedClientChanges`); afterwards there are none.
    public func takeBondedClientChanges() -> Set<BluetoothAddress> {
        guard !bondedClientChanges.isEmpty else { return [] }
        defer { bondedClientChanges = [] }
        return bondedClientChanges
    }

    // MARK: Internals

    /// Notes that the state kept for the client on `id` changed, when it is bonded.
    func noteBondedChange(of id: ConnectionID) {
        if let bond = connections[id]?.bond { bondedClientChanges.insert(bond) }
    }

    /// A client on `id` knows the database again; a bonded one's state changed if it
    /// did not before.
    func becomeChangeAware(_ id: ConnectionID) {
        guard let state = connections[id] else { return }
        if !state.changeAware { noteBondedChange(of: id) }
        connections[id]?.becomeChangeAware()
    }

    /// Whether `subscriptions` include the indications of Service Changed.
    func takesServiceChanged(_ subscriptions: [UInt16: GATTClientConfiguration]) -> Bool {
        guard let handle = database.serviceChanged.flatMap({ database.valueHandle(of: $0) }) else { return false }
        return subscriptions[handle]?.contains(.indication) == true
    }

    /// The smallest range covering both.
    static func merge(_ a: ClosedRange<UInt16>?, _ b: ClosedRange<UInt16>) -> ClosedRange<UInt16> {
        guard let a else { return b }
        return min(a.lowerBound, b.lowerBound)...max(a.upperBound, b.upperBound)
    }

    /// `state` as a value outside the server, against the database served now.
    func exported(_ state: BondedState) -> GATTBondedClient {
        var subscriptions: [GATTBondedClient.Subscription] = []
        for (handle, configuration) in state.subscriptions.sorted(by: { $0.key < $1.key }) {
            guard let entry = database.characteristicsByValueHandle[handle] else { continue }
            subscriptions.append(GATTBondedClient.Subscription(
                valueHandle: handle, characteristic: entry.characteristic.uuid, configuration: configuration))
        }
        return GATTBondedClient(subscriptions: subscriptions, clientSupportedFeatures: state.clientFeatures,
                                changeAware: state.changeAware, serviceChangeOwed: state.pendingServiceChange,
                                databaseHash: database.databaseHash)
    }
}
