import SwiftATTPDU
import SwiftATTCore

/// What a GATT client knows of one server's database: its services, each with its
/// included services, characteristics and their descriptors, in handle order.
///
/// Filled by `GATTClient.DiscoverDatabase` (or record by record from the finer
/// procedures), kept across connections to a bonded server with its Database Hash, and
/// corrected when the server says its database changed: `invalidate(_:)` and
/// `applyServiceChanged(handle:value:)` drop the services a change touches and name the
/// range to discover again (Core 5.4 Vol 3 Part G §2.5.2, §7.1). Services never overlap:
/// inserting one replaces any it overlaps.
public struct GATTClientDatabase: Sendable, Hashable {
    /// A service and what was discovered inside it.
    public struct ServiceRecord: Sendable, Hashable {
        /// The service.
        public var service: GATTClient.Service
        /// The services it includes.
        public var includedServices: [GATTClient.IncludedService]
        /// In handle order.
        public var characteristics: [CharacteristicRecord]

        /// A record of `service` and what was found in it.
        public init(
            service: GATTClient.Service, includedServices: [GATTClient.IncludedService] = [],
            characteristics: [CharacteristicRecord] = []
        ) {
            self.service = service
            self.includedServices = includedServices
            self.characteristics = characteristics
        }
    }

    /// A characteristic and its descriptors.
    public struct CharacteristicRecord: Sendable, Hashable {
        /// The characteristic.
        public var characteristic: GATTClient.Characteristic
        /// In handle order.
        public var descriptors: [GATTClient.Descriptor]

        /// A record of `characteristic` and its descriptors.
        public init(characteristic: GATTClient.Characteristic, descriptors: [GATTClient.Descriptor] = []) {
            self.characteristic = characteristic
            self.descriptors = descriptors
        }
    }

    /// What a change of the server's database took out of the cache.
    public struct Invalidation: Sendable, Hashable {
        /// The handles the server said changed.
        public let changedRange: ClosedRange<UInt16>
        /// The cached services that overlapped it, whole, in handle order.
        public let removedServices: [ServiceRecord]
        /// The range to discover again (`GATTClient.DiscoverDatabase(range:mtu:)`): the
        /// changed range, widened to the whole of every removed service, since a service
        /// is found by its declaration and the change may have moved it.
        public let rediscoveryRange: ClosedRange<UInt16>

        /// The removed services' characteristics, in handle order.
        public var removedCharacteristics: [GATTClient.Characteristic] {
            removedServices.flatMap { $0.characteristics.map(\.characteristic) }
        }
    }

    /// Every cached service, primary and secondary, in handle order.
    public private(set) var services: [ServiceRecord] = []
    /// The server's Database Hash when the cache was made (`GATTClient.CheckDatabaseHash`);
    /// any invalidation clears it.
    public var databaseHash: [UInt8]?

    /// A cache of `services` (overlapping ones replace earlier ones) and the hash they were read
    /// under.
    public init(services: [ServiceRecord] = [], databaseHash: [UInt8]? = nil) {
        for record in services { insert(record) }
        self.databaseHash = databaseHash
    }

    // MARK: Changing the cache

    /// Adds a service record, replacing (and returning) the cached services it overlaps.
    @discardableResult
    public mutating func insert(_ record: ServiceRecord) -> [ServiceRecord] {
        let handles = record.service.handles
        let replaced = services.filter { $0.service.handles.overlaps(handles) }
        services.removeAll { $0.service.handles.overlaps(handles) }
        let position = services.firstIndex { $0.service.handles.lowerBound > handles.lowerBound } ?? services.count
        services.insert(record, at: position)
        return replaced
    }

    /// Adds every service of `other` (a rediscovered range), replacing what they overlap.
    public mutating func merge(_ other: GATTClientDatabase) {
        for record in other.services { insert(record) }
    }

    /// Drops every cached service that overlaps `range` and says what to discover again.
    /// The cached Database Hash no longer describes the cache, so it is cleared.
    public mutating func invalidate(_ range: ClosedRange<UInt16>) -> Invalidation {
        let removed = services.filter { $0.service.handles.overlaps(range) }
        services.removeAll { $0.service.handles.overlaps(range) }
        databaseHash = nil
        var lower = range.lowerBound
        var upper = range.upperBound
        for record in removed {
            lower = min(lower, record.service.handles.lowerBound)
            upper = max(upper, record.service.handles.upperBound)
        }
        return Invalidation(changedRange: range, removedServices: removed, rediscoveryRange: lower...upper)
    }

    // MARK: Lookups by UUID

    /// The services with `uuid`, in handle order.
    public func services(uuid: BluetoothUUID) -> [GATTClient.Service] {
        services.lazy.map(\.service).filter { $0.uuid == uuid }
    }

    /// The characteristics with `uuid`, in handle order: in `service`, or in any service.
    public func characteristics(uuid: BluetoothUUID, in service: GATTClient.Service? = nil) -> [GATTClient.Characteristic] {
        let records = service.map { s in services.filter { $0.service == s } } ?? services
        return records.flatMap { $0.characteristics.lazy.map(\.characteristic).filter { $0.uuid == uuid } }
    }

    // MARK: Lookups by handle

    /// The service whose handles include `handle`.
    public func service(containing handle: UInt16) -> ServiceRecord? {
        // The last service starting at or before the handle is the only candidate.
        var low = 0
        var high = services.count
        while low < high {
            let mid = (low + high) / 2
            if services[mid].service.handles.lowerBound <= handle { low = mid + 1 } else { high = mid }
        }
        guard low > 0, services[low - 1].service.handles.contains(handle) else { return nil }
        return services[low - 1]
    }

    /// The characteristic whose definition (declaration through end handle) includes
    /// `handle`: its value's, a descriptor's or its declaration's.
    public func characteristic(containing handle: UInt16) -> CharacteristicRecord? {
        service(containing: handle)?.characteristics.first {
            ($0.characteristic.declarationHandle...$0.characteristic.endHandle).contains(handle)
        }
    }

    /// The characteristic whose value is at `handle`: the one a notification or
    /// indication of `handle` is about.
    public func characteristic(valueHandle handle: UInt16) -> GATTClient.Characteristic? {
        guard let record = characteristic(containing: handle), record.characteristic.valueHandle == handle else { return nil }
        return record.characteristic
    }

    /// The descriptor at `handle`.
    public func descriptor(at handle: UInt16) -> GATTClient.Descriptor? {
        characteristic(containing: handle)?.descriptors.first { $0.handle == handle }
    }

    /// The cached descriptors of `characteristic`.
    public func descriptors(of characteristic: GATTClient.Characteristic) -> [GATTClient.Descriptor] {
        self.characteristic(containing: characteristic.valueHandle)?.descriptors ?? []
    }

    /// The handle of `characteristic`'s Client Characteristic Configuration descriptor
    /// (0x2902), for `GATTClient.WriteClientCharacteristicConfiguration`.
    public func clientConfigurationHandle(of characteristic: GATTClient.Characteristic) -> UInt16? {
        descriptors(of: characteristic).first { $0.uuid == GATTAttributeType.clientCharacteristicConfiguration }?.handle
    }

    /// The value handle of the Service Changed characteristic (0x2A05) of the GATT
    /// service (0x1801), where the server indicates changes (Part G §7.1).
    public var serviceChangedValueHandle: UInt16? {
        services.lazy
            .filter { $0.service.uuid == GATTAttributeType.genericAttributeService }
            .flatMap(\.characteristics)
            .first { $0.characteristic.uuid == GATTAttributeType.serviceChanged }?
            .characteristic.valueHandle
    }
}
