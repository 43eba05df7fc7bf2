import SwiftATTPDU

// Subscriptions and pushed values: Client Characteristic Configuration state, Handle
// Value Notifications and Indications, and the Service Changed indication.
// Core 5.4 Vol 3 Part G §3.3.3.3, §4.10–§4.11, §7.1; Part F §3.4.7.
extension GATTServer {
    /// Sets `characteristic`'s value (when the server holds it) and returns what its
    /// subscribers are owed: a Handle Value Notification to each client with the
    /// Notification bit set, an Indication to each with only the Indication bit set (a
    /// client that set both gets the notification, as BlueZ does: it needs no
    /// confirmation, so streaming is not held up), the value cut to that connection's
    /// ATT_MTU−3 octets. `only` limits it to one connection.
    ///
    /// Skipped: clients whose link does not meet the value's read requirements (they
    /// could not read it either; Zephyr does the same), and change-unaware clients that
    /// use Robust Caching (Part G §2.5.2.1). The caller sends indications one at a time
    /// per bearer (Part F §3.3.2).
    public func update(_ characteristic: GATTCharacteristic, value: [UInt8], only: ConnectionID? = nil) -> [(ConnectionID, ATTPDU)] {
        var out: [(ConnectionID, ATTPDU)] = []
        update(characteristic, value: value, only: only) { out.append(($0, $1)) }
        return out
    }

    /// `update(_:value:only:)` handing each connection's PDU to `deliver` as it is made,
    /// in connection order: no array per value, for a host streaming notifications.
    public func update(_ characteristic: GATTCharacteristic, value: [UInt8], only: ConnectionID? = nil,
                       _ deliver: (ConnectionID, ATTPDU) -> Void) {
        guard let entry = database.characteristicsByObject[ObjectIdentifier(characteristic)] else { return }
        push(entry, value: value, only: only, deliver)
    }

    /// `update(_:value:only:_:)` for a run of values of one characteristic, in order:
    /// what a host's loop holds when an application calls `updateValue` faster than the
    /// loop turns. The characteristic and its subscribers are looked up once for the
    /// run, not once per value, and a value the server keeps is stored once, at the
    /// end, when its length rule lets each value stand alone (a variable length); each
    /// subscriber gets every value, in order, as `update(_:value:only:_:)` would send it.
    public func update(_ characteristic: GATTCharacteristic, values run: [[UInt8]], only: ConnectionID? = nil,
                       _ deliver: (ConnectionID, ATTPDU) -> Void) {
        guard let last = run.last, let entry = database.characteristicsByObject[ObjectIdentifier(characteristic)] else { return }
        guard run.count > 1 else { return push(entry, value: last, only: only, deliver) }
        let subscribers = subscribers(of: entry, only: only)
        let limit = ATTLimits.maximumAttributeValueLength
        // Each PDU slices its value straight from where it lives (the run, or the
        // server's table for a fixed length): an intermediate slice would cost a retain
        // and a release per value.
        var fixed: GATTDatabase.StoredValue?
        var maximum = limit
        if let stored = entry.storedValue {
            switch stored.length {
            case .fixed: fixed = stored
            case let .variable(n): maximum = min(n, limit)
            }
        }
        for index in run.indices {
            // A fixed-length value keeps the octets past a shorter one, so each value is
            // stored before it is sent; a variable-length one is sent as given (cut to
            // its maximum) and only the last is kept.
            let length: Int
            if let fixed {
                store(run[index], in: fixed)
                length = min(values[fixed.slot].count, limit)
            } else {
                length = min(run[index].count, maximum)
            }
            for subscriber in subscribers {
                let cut = min(length, subscriber.mtu - 3)
                let part = fixed.map { values[$0.slot][..<cut] } ?? run[index][..<cut]
                deliver(subscriber.id, Self.pdu(handle: entry.valueHandle, value: part, configuration: subscriber.configuration))
            }
        }
        if let stored = entry.storedValue, case .variable = stored.length { store(last, in: stored) }
    }

    /// `update(_:value:only:)` for the characteristic whose value has `valueHandle`.
    public func update(valueHandle: UInt16, value: [UInt8], only: ConnectionID? = nil) -> [(ConnectionID, ATTPDU)] {
        guard let entry = database.characteristicsByValueHandle[valueHandle] else { return [] }
        var out: [(ConnectionID, ATTPDU)] = []
        push(entry, value: value, only: only) { out.append(($0, $1)) }
        return out
    }

    /// Sets the value of a characteristic the server holds, telling nobody. A value
    /// longer than the characteristic allows is cut; a fixed-length value keeps the
    /// octets past a shorter one. `false` when the server does not hold this value.
    @discardableResult
    public func setValue(_ value: [UInt8], for characteristic: GATTCharacteristic) -> Bool {
        guard let handle = database.valueHandle(of: characteristic) else { return false }
        return setValue(value, at: handle)
    }

    /// `setValue(_:for:)` for any attribute the server holds (a User Description, say).
    @discardableResult
    public func setValue(_ value: [UInt8], at handle: UInt16) -> Bool {
        guard let index = database.index(of: handle),
              case let .stored(slot, length, _) = database.attributes[index].storage else { return false }
        store(value, in: GATTDatabase.StoredValue(slot: slot, length: length))
        return true
    }

    /// Keeps `value` in its slot: cut to the maximum, or over the start of a
    /// fixed-length one.
    func store(_ value: [UInt8], in stored: GATTDatabase.StoredValue) {
        switch stored.length {
        case let .fixed(n):
            values[stored.slot].replaceSubrange(0..<min(n, value.count), with: value.prefix(n))
        case let .variable(maximum):
            values[stored.slot] = value.count <= maximum ? value : Array(value.prefix(maximum))
        }
    }

    /// The value the server holds for `characteristic`; `nil` for dynamic values.
    public func value(of characteristic: GATTCharacteristic) -> [UInt8]? {
        database.valueHandle(of: characteristic).flatMap { value(at: $0) }
    }

    /// The value the server holds at `handle` (declarations included); `nil` for
    /// dynamic and per-client values.
    public func value(at handle: UInt16) -> [UInt8]? {
        guard let index = database.index(of: handle) else { return nil }
        switch database.attributes[index].storage {
        case let .constant(bytes): return bytes
        case let .stored(slot, _, _), let .serverConfiguration(slot): return values[slot]
        default: return nil
        }
    }

    /// What `id` has subscribed to on `characteristic`.
    public func configuration(of characteristic: GATTCharacteristic, for id: ConnectionID) -> GATTClientConfiguration {
        guard let handle = database.valueHandle(of: characteristic) else { return [] }
        return connections[id]?.subscriptions[handle] ?? []
    }

    /// The connections subscribed to `characteristic`, in order.
    public func subscribers(of characteristic: GATTCharacteristic) -> [ConnectionID] {
        guard let handle = database.valueHandle(of: characteristic) else { return [] }
        return connections.filter { $0.value.subscriptions[handle] != nil }.keys.sorted()
    }

    /// The Service Changed indications for `range` (Part G §7.1): one for each connected
    /// client that enabled them, each owed until it is confirmed (`indicationConfirmed`).
    /// Bonded clients that are away, and subscribed, are owed the range (merged with any
    /// earlier one) when they reconnect.
    public func serviceChangedIndication(_ range: ClosedRange<UInt16>) -> [(ConnectionID, ATTPDU)] {
        if let handle = database.serviceChanged.flatMap({ database.valueHandle(of: $0) }) {
            let connectedBonds = Set(connections.values.compactMap(\.bond))
            for (bond, saved) in bonds where !connectedBonds.contains(bond)
                && saved.subscriptions[handle]?.contains(.indication) == true {
                bonds[bond]?.pendingServiceChange = Self.merge(saved.pendingServiceChange, range)
                bondedClientChanges.insert(bond)
            }
        }
        return connections.keys.sorted().compactMap { id in
            guard let pdu = serviceChangedPDU(range, for: state(id)) else { return nil }
            connections[id]?.serviceChangesUnconfirmed.append(range)
            noteBondedChange(of: id)
            return (id, pdu)
        }
    }

    /// Swaps in a new database (a changed description) and returns the Service Changed
    /// indications for `changedRange`.
    ///
    /// Every client becomes change-unaware (Part G §2.5.2.1). Values the server held are
    /// the new database's initial values. A subscription survives when the new database
    /// has a characteristic with the same UUID at the same value handle that still allows
    /// it (so the Service Changed subscription itself survives); others end, with a
    /// `.databaseChanged` event. A non-empty prepare queue makes the next Execute Write
    /// answer Database Out Of Sync (Part F §3.4.6.3).
    public func replaceDatabase(_ new: GATTDatabase, changedRange: ClosedRange<UInt16> = 0x0001...0xFFFF) -> [(ConnectionID, ATTPDU)] {
        let old = database
        database = new
        values = new.initialValues
        var ended: [(ConnectionID, GATTDatabase.CharacteristicEntry)] = []
        for id in connections.keys.sorted() {
            guard var s = connections[id] else { continue }
            let (kept, dropped) = Self.carry(s.subscriptions, from: old, to: new)
            s.subscriptions = kept
            s.prepareQueueOutdated = !s.prepareQueue.isEmpty
            s.changeAware = false
            s.outOfSyncSent = []
            s.readHashWhileUnaware = false
            connections[id] = s
            ended += dropped.map { (id, $0) }
            // Recorded against the old database's hash: stored again under the new one.
            noteBondedChange(of: id)
        }
        for bond in bonds.keys {
            guard var b = bonds[bond] else { continue }
            b.subscriptions = Self.carry(b.subscriptions, from: old, to: new).kept
            b.changeAware = false
            bonds[bond] = b
            bondedClientChanges.insert(bond)
        }
        for (id, entry) in ended {
            subscriptionChanges.append(GATTSubscriptionChange(
                connection: id, characteristic: entry.characteristic, valueHandle: entry.valueHandle,
                configuration: [], cause: .databaseChanged))
        }
        return serviceChangedIndication(changedRange)
    }

    /// The bearer received the confirmation of the indication of `valueHandle`. A
    /// confirmed Service Changed indication pays the oldest range owed to the client, and
    /// makes it change-aware while it uses only the unenhanced bearer (§2.5.2.1; with
    /// Enhanced bearers, a Robust Caching client becomes aware by reading the Database
    /// Hash — one that does not use Robust Caching has only this confirmation to go by).
    public func indicationConfirmed(valueHandle: UInt16, by id: ConnectionID) {
        guard let changed = database.serviceChanged, valueHandle == database.valueHandle(of: changed),
              let state = connections[id] else { return }
        if !state.serviceChangesUnconfirmed.isEmpty {
            connections[id]?.serviceChangesUnconfirmed.removeFirst()
            noteBondedChange(of: id)
        }
        if state.usesOneBearer || !state.usesRobustCaching { becomeChangeAware(id) }
    }

    // MARK: Internals

    func push(_ entry: GATTDatabase.CharacteristicEntry, value: [UInt8], only: ConnectionID?,
              _ deliver: (ConnectionID, ATTPDU) -> Void) {
        // A value the server holds is pushed as stored (a fixed-length one keeps its
        // other octets); a dynamic one as given.
        let pushed: ArraySlice<UInt8>
        if let stored = entry.storedValue {
            store(value, in: stored)
            pushed = values[stored.slot].prefix(ATTLimits.maximumAttributeValueLength)
        } else {
            pushed = value.prefix(ATTLimits.maximumAttributeValueLength)
        }
        forEachSubscriber(of: entry, only: only) { subscriber in
            deliver(subscriber.id, Self.pdu(handle: entry.valueHandle, value: pushed.prefix(subscriber.mtu - 3),
                                            configuration: subscriber.configuration))
        }
    }

    /// A connection a pushed value goes to, and how.
    struct Subscriber {
        let id: ConnectionID
        let configuration: GATTClientConfiguration
        let mtu: Int
    }

    /// The connections `entry`'s value goes to now, in connection order.
    func subscribers(of entry: GATTDatabase.CharacteristicEntry, only: ConnectionID?) -> [Subscriber] {
        var subscribers: [Subscriber] = []
        forEachSubscriber(of: entry, only: only) { subscribers.append($0) }
        return subscribers
    }

    /// Calls `body` for each connection `entry`'s value goes to now, in connection order.
    func forEachSubscriber(of entry: GATTDatabase.CharacteristicEntry, only: ConnectionID?, _ body: (Subscriber) -> Void) {
        for id in connectionOrder where only == nil || only == id {
            // Read in place: a `ConnectionState` copied out of the dictionary would retain
            // its arrays and dictionaries, for each subscriber of each value.
            guard let slot = connections.index(forKey: id),
                  let (configuration, mtu) = connections.values[slot].push(entry.valueHandle, readAccess: entry.readAccess) else { continue }
            body(Subscriber(id: id, configuration: configuration, mtu: mtu))
        }
    }

    /// A notification when the client asked for them (even if it asked for indications
    /// too), otherwise an indication.
    static func pdu(handle: UInt16, value: ArraySlice<UInt8>, configuration: GATTClientConfiguration) -> ATTPDU {
        configuration.contains(.notification)
            ? .handleValueNotification(HandleValueNotification(handle: handle, value: value))
            : .handleValueIndication(HandleValueIndication(handle: handle, value: value))
    }

    /// The Service Changed indication for a client, if it enabled them: the range's
    /// start and end handles (Part G §7.1).
    func serviceChangedPDU(_ range: ClosedRange<UInt16>, for state: ConnectionState) -> ATTPDU? {
        guard let changed = database.serviceChanged, let handle = database.valueHandle(of: changed),
              state.subscriptions[handle]?.contains(.indication) == true else { return nil }
        var value: [UInt8] = []
        value.append(littleEndian: range.lowerBound)
        value.append(littleEndian: range.upperBound)
        return .handleValueIndication(HandleValueIndication(handle: handle, value: value[...]))
    }

    /// The subscription changes made since the last call (`subscriptionChanges`), oldest
    /// first; afterwards there are none.
    public func takeSubscriptionChanges() -> [GATTSubscriptionChange] {
        guard !subscriptionChanges.isEmpty else { return [] }
        defer { subscriptionChanges = [] }
        return subscriptionChanges
    }

    /// Records a client's new configuration, and the change for the owner if it changed.
    func setSubscription(_ configuration: GATTClientConfiguration, to valueHandle: UInt16, for id: ConnectionID, cause: GATTSubscriptionChange.Cause) {
        let old = connections[id]?.subscriptions[valueHandle] ?? []
        connections[id]?.subscriptions[valueHandle] = configuration.isEmpty ? nil : configuration
        if old != configuration {
            announce(id, valueHandle: valueHandle, configuration: configuration, cause: cause)
            noteBondedChange(of: id)
        }
    }

    func announce(_ id: ConnectionID, valueHandle: UInt16, configuration: GATTClientConfiguration, cause: GATTSubscriptionChange.Cause) {
        guard let entry = database.characteristicsByValueHandle[valueHandle] else { return }
        subscriptionChanges.append(GATTSubscriptionChange(
            connection: id, characteristic: entry.characteristic, valueHandle: valueHandle,
            configuration: configuration, cause: cause))
    }

    /// The subscriptions that still mean the same thing in `new`, and the entries (from
    /// `old`) of those that do not.
    static func carry(
        _ subscriptions: [UInt16: GATTClientConfiguration], from old: GATTDatabase, to new: GATTDatabase
    ) -> (kept: [UInt16: GATTClientConfiguration], dropped: [GATTDatabase.CharacteristicEntry]) {
        var kept: [UInt16: GATTClientConfiguration] = [:]
        var dropped: [GATTDatabase.CharacteristicEntry] = []
        for (handle, configuration) in subscriptions.sorted(by: { $0.key < $1.key }) {
            let before = old.characteristicsByValueHandle[handle]
            if let before, let after = new.characteristicsByValueHandle[handle],
               after.characteristic.uuid == before.characteristic.uuid,
               after.allowedConfiguration.isSuperset(of: configuration) {
                kept[handle] = configuration
            } else if let before {
                dropped.append(before)
            }
        }
        return (kept, dropped)
    }
}
