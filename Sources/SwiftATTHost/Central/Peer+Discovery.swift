import SwiftATTCore
import SwiftATTGATT

/// Discovery (Core 5.4 Vol 3 Part G §4.4–§4.7). What each call finds is also kept in
/// `database`, so later calls (notifications, writes by UUID) can find descriptors.
extension Peer {
    /// Discover All Primary Services (§4.4.1), or Discover Primary Service by Service
    /// UUID (§4.4.2) for each of `uuids`; in handle order.
    public func discoverServices(_ uuids: [BluetoothUUID] = []) async throws(GATTClientError) -> [GATTClient.Service] {
        var found: [GATTClient.Service] = []
        if uuids.isEmpty {
            found = try await run { mtu in GATTClient.DiscoverPrimaryServices(mtu: mtu) }
        } else {
            for uuid in uuids {
                found += try await run { mtu in GATTClient.DiscoverPrimaryServices(uuid: uuid, mtu: mtu) }
            }
            found.sort { $0.handles.lowerBound < $1.handles.lowerBound }
        }
        state.withLock { state in
            for service in found where !state.database.services.contains(where: { $0.service == service }) {
                state.database.insert(.init(service: service))
            }
        }
        return found
    }

    /// Find Included Services (§4.5.1) of `service`.
    public func discoverIncludedServices(of service: GATTClient.Service) async throws(GATTClientError) -> [GATTClient.IncludedService] {
        let found = try await run { mtu in GATTClient.FindIncludedServices(service: service, mtu: mtu) }
        update(service) { $0.includedServices = found }
        return found
    }

    /// Discover All Characteristics of a Service (§4.6.1), or Discover Characteristics by
    /// UUID (§4.6.2) for each of `uuids`.
    public func discoverCharacteristics(_ uuids: [BluetoothUUID] = [], of service: GATTClient.Service) async throws(GATTClientError) -> [GATTClient.Characteristic] {
        var found: [GATTClient.Characteristic] = []
        if uuids.isEmpty {
            found = try await run { mtu in GATTClient.DiscoverCharacteristics(service: service, mtu: mtu) }
        } else {
            for uuid in uuids {
                found += try await run { mtu in GATTClient.DiscoverCharacteristics(service: service, uuid: uuid, mtu: mtu) }
            }
            found.sort { $0.valueHandle < $1.valueHandle }
        }
        update(service) { record in
            for characteristic in found where !record.characteristics.contains(where: { $0.characteristic.valueHandle == characteristic.valueHandle }) {
                record.characteristics.append(.init(characteristic: characteristic))
            }
            record.characteristics.sort { $0.characteristic.valueHandle < $1.characteristic.valueHandle }
        }
        return found
    }

    /// Discover All Characteristic Descriptors (§4.7.1) of `characteristic`.
    public func discoverDescriptors(of characteristic: GATTClient.Characteristic) async throws(GATTClientError) -> [GATTClient.Descriptor] {
        guard characteristic.descriptorHandles != nil else { return [] }
        let found = try await run { mtu in GATTClient.DiscoverAllCharacteristicDescriptors(characteristic: characteristic, mtu: mtu) }
        state.withLock { state in
            guard let record = state.database.service(containing: characteristic.valueHandle) else { return }
            var updated = record
            if let index = updated.characteristics.firstIndex(where: { $0.characteristic.valueHandle == characteristic.valueHandle }) {
                updated.characteristics[index].descriptors = found
            } else {
                updated.characteristics.append(.init(characteristic: characteristic, descriptors: found))
                updated.characteristics.sort { $0.characteristic.valueHandle < $1.characteristic.valueHandle }
            }
            state.database.insert(updated)
        }
        return found
    }

    /// The whole database: every service, included service, characteristic and
    /// descriptor (`GATTClient.DiscoverDatabase`), then its Database Hash (§7.3) when the
    /// server has one. With a `cached` database that kept a hash, the hash is read first
    /// and, if unchanged, the cache is used without discovering anything. If the server
    /// has Service Changed, its indications are enabled, so later changes are applied to
    /// `database` as they are announced (`serviceChanges()`).
    @discardableResult
    public func discoverDatabase(cached: GATTClientDatabase? = nil) async throws(GATTClientError) -> GATTClientDatabase {
        var database: GATTClientDatabase
        if let cached, cached.databaseHash != nil,
           case .unchanged = try await run({ mtu in GATTClient.CheckDatabaseHash(cached: cached.databaseHash, mtu: mtu) }) {
            database = cached
        } else {
            database = try await discover(range: 0x0001...0xFFFF)
            if case let .changed(hash) = try await run({ mtu in GATTClient.CheckDatabaseHash(cached: nil, mtu: mtu) }) {
                database.databaseHash = hash
            }
        }
        state.withLock { $0.database = database }
        try await watchServiceChanged(in: database)
        return database
    }

    /// Replaces the cached record of `service` with `change` applied.
    private func update(_ service: GATTClient.Service, _ change: (inout GATTClientDatabase.ServiceRecord) -> Void) {
        state.withLock { state in
            var record = state.database.services.first { $0.service == service } ?? .init(service: service)
            change(&record)
            state.database.insert(record)
        }
    }
}
