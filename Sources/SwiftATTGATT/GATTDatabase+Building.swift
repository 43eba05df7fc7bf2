import SwiftATTPDU
import SwiftATTCore

/// Turns services into attributes in two passes: handles first, so that include
/// declarations, characteristic declarations and Aggregate Format descriptors can refer
/// to handles that come later; then the attributes themselves.
struct GATTDatabaseBuilder {
    private struct PlannedCharacteristic {
        let characteristic: GATTCharacteristic
        let declarationHandle: UInt16
        /// The descriptors in handle order, automatic ones included.
        let descriptors: [GATTDescriptor]
        var endHandle: UInt16 { declarationHandle + 1 + UInt16(descriptors.count) }
    }

    private struct PlannedService {
        let service: GATTService
        let range: ClosedRange<UInt16>
        let characteristics: [PlannedCharacteristic]
    }

    let orderedServices: [GATTService]
    private var plan: [PlannedService] = []
    private(set) var attributes: [Attribute] = []
    private(set) var initialValues: [[UInt8]] = []
    private(set) var characteristics: [ObjectIdentifier: GATTDatabase.CharacteristicEntry] = [:]
    /// Handles of the descriptors the caller made (automatic ones are not recorded: their
    /// objects die with the builder, and a dead object's identifier can be reused).
    private(set) var descriptorHandles: [ObjectIdentifier: UInt16] = [:]
    private(set) var serviceRanges: [ObjectIdentifier: ClosedRange<UInt16>] = [:]

    /// Checks the description and assigns every handle.
    init(services: [GATTService]) throws(GATTDatabaseError) {
        orderedServices = services
        var seenServices = Set<ObjectIdentifier>()
        for s in services where !seenServices.insert(ObjectIdentifier(s)).inserted {
            throw .duplicateService(s.uuid)
        }
        for s in services {
            for included in s.includedServices where !seenServices.contains(ObjectIdentifier(included)) {
                throw .includedServiceMissing(included.uuid, including: s.uuid)
            }
        }

        var seenCharacteristics = Set<ObjectIdentifier>()
        var seenDescriptors = Set<ObjectIdentifier>()
        var next = 1
        for s in services {
            var start = next
            if let requested = s.startHandle {
                guard requested != 0, Int(requested) >= next else {
                    throw .startHandleUnavailable(service: s.uuid, requested: requested, nextFree: next)
                }
                start = Int(requested)
            }
            var handle = start + 1 + s.includedServices.count
            var planned: [PlannedCharacteristic] = []
            for c in s.characteristics {
                guard seenCharacteristics.insert(ObjectIdentifier(c)).inserted else { throw .duplicateCharacteristic(c.uuid) }
                for d in c.descriptors where !seenDescriptors.insert(ObjectIdentifier(d)).inserted {
                    throw .duplicateDescriptor(d.uuid, characteristic: c.uuid)
                }
                let descriptors = try Self.resolvedDescriptors(of: c)
                guard handle + 1 + descriptors.count <= 0xFFFF else { throw .handlesExhausted(service: s.uuid) }
                planned.append(PlannedCharacteristic(characteristic: c, declarationHandle: UInt16(handle), descriptors: descriptors))
                handle += 2 + descriptors.count
            }
            let end = handle - 1
            guard end <= 0xFFFF else { throw .handlesExhausted(service: s.uuid) }
            let range = UInt16(start)...UInt16(end)
            plan.append(PlannedService(service: s, range: range, characteristics: planned))
            serviceRanges[ObjectIdentifier(s)] = range
            next = end + 1
        }

        for ps in plan {
            for pc in ps.characteristics {
                for (k, d) in pc.descriptors.enumerated()
                where pc.characteristic.descriptors.contains(where: { $0 === d }) {
                    descriptorHandles[ObjectIdentifier(d)] = pc.declarationHandle + 2 + UInt16(k)
                }
            }
        }
    }

    /// Makes the attributes.
    mutating func build() throws(GATTDatabaseError) {
        for ps in plan {
            let s = ps.service
            attributes.append(Attribute(
                handle: ps.range.lowerBound,
                type: s.isPrimary ? GATTAttributeType.primaryService : GATTAttributeType.secondaryService,
                role: s.isPrimary ? .primaryService : .secondaryService,
                permissions: .readable, groupEnd: ps.range.upperBound,
                storage: .constant(GATTAttributeType.normalized(s.uuid).encoded())))
            for (k, included) in s.includedServices.enumerated() {
                guard let range = serviceRanges[ObjectIdentifier(included)] else {
                    throw .includedServiceMissing(included.uuid, including: s.uuid)
                }
                // Part G §3.2: the included service's UUID only when it is a 16-bit UUID.
                var value: [UInt8] = []
                value.append(littleEndian: range.lowerBound)
                value.append(littleEndian: range.upperBound)
                let uuid = GATTAttributeType.normalized(included.uuid)
                if uuid.width == .bits16 { value += uuid.encoded() }
                let handle = ps.range.lowerBound + 1 + UInt16(k)
                attributes.append(Attribute(
                    handle: handle, type: GATTAttributeType.include, role: .include,
                    permissions: .readable, groupEnd: handle, storage: .constant(value)))
            }
            for pc in ps.characteristics { try add(pc) }
        }
    }

    private mutating func add(_ pc: PlannedCharacteristic) throws(GATTDatabaseError) {
        let c = pc.characteristic
        let valueHandle = pc.declarationHandle + 1
        let type = GATTAttributeType.normalized(c.uuid)

        // Part G §3.3.1: properties, value handle, UUID.
        var declaration: [UInt8] = [c.declaredProperties.rawValue]
        declaration.append(littleEndian: valueHandle)
        declaration += type.encoded()
        attributes.append(Attribute(
            handle: pc.declarationHandle, type: GATTAttributeType.characteristic, role: .characteristicDeclaration,
            permissions: .readable, groupEnd: pc.endHandle, storage: .constant(declaration)))

        let (storage, permissions) = try valueStorage(c.value, permissions: c.permissions, uuid: c.uuid)
        let storedValue: GATTDatabase.StoredValue?
        if case let .stored(slot, length, _) = storage {
            storedValue = GATTDatabase.StoredValue(slot: slot, length: length)
        } else {
            storedValue = nil
        }
        attributes.append(Attribute(
            handle: valueHandle, type: type, role: .characteristicValue,
            permissions: permissions, groupEnd: valueHandle, storage: storage))

        var allowed: GATTClientConfiguration = []
        if c.properties.contains(.notify) { allowed.insert(.notification) }
        if c.properties.contains(.indicate) { allowed.insert(.indication) }
        var configurationHandle: UInt16? = nil

        for (k, d) in pc.descriptors.enumerated() {
            let handle = pc.declarationHandle + 2 + UInt16(k)
            let storage: Attribute.Storage
            var permissions = d.permissions
            switch d.kind {
            case .extendedProperties:
                var value: [UInt8] = []
                value.append(littleEndian: c.extendedProperties.rawValue)
                storage = .constant(value)
                permissions = .readable
            case .userDescription:
                // Part G §3.3.3.2: writable exactly when Writable Auxiliaries is set.
                storage = try valueStorage(d.value, permissions: d.permissions, uuid: d.uuid).0
                permissions.write = c.extendedProperties.contains(.writableAuxiliaries) ? .open : nil
            case .clientConfiguration:
                configurationHandle = handle
                storage = .clientConfiguration(valueHandle: valueHandle, allowed: allowed)
            case .serverConfiguration:
                storage = .serverConfiguration(slot: addValue([0, 0]))
            case .presentationFormat:
                storage = .constant(Self.initialBytes(of: d.value))
                permissions = .readable
            case let .aggregateFormat(formats):
                var value: [UInt8] = []
                for f in formats {
                    guard case .presentationFormat = f.kind, let h = descriptorHandles[ObjectIdentifier(f)] else {
                        throw .aggregateFormatInvalid(characteristic: c.uuid)
                    }
                    value.append(littleEndian: h)
                }
                storage = .constant(value)
                permissions = .readable
            case .other:
                (storage, permissions) = try valueStorage(d.value, permissions: d.permissions, uuid: d.uuid)
            }
            attributes.append(Attribute(
                handle: handle, type: GATTAttributeType.normalized(d.uuid), role: .descriptor,
                permissions: permissions, groupEnd: handle, storage: storage))
        }

        characteristics[ObjectIdentifier(c)] = GATTDatabase.CharacteristicEntry(
            characteristic: c, declarationHandle: pc.declarationHandle, endHandle: pc.endHandle,
            clientConfigurationHandle: configurationHandle, allowedConfiguration: allowed,
            readAccess: permissions.read, storedValue: storedValue)
    }

    /// The storage for a value, and the permissions it can honour (no reads without a
    /// read handler, no writes without a write handler).
    private mutating func valueStorage(
        _ value: GATTValue, permissions: AttributePermissions, uuid: BluetoothUUID
    ) throws(GATTDatabaseError) -> (Attribute.Storage, AttributePermissions) {
        let limit = value.length
        guard (0...ATTLimits.maximumAttributeValueLength).contains(limit.maximum) else {
            throw .invalidValueLength(uuid, length: limit.maximum, limit: limit)
        }
        var permissions = permissions
        if !value.canRead { permissions.read = nil }
        if !value.canWrite { permissions.write = nil }
        switch value.source {
        case let .stored(initial, onWrite):
            let fits: Bool
            switch limit {
            case let .fixed(n): fits = initial.count == n
            case let .variable(maximum): fits = initial.count <= maximum
            }
            guard fits else { throw .invalidValueLength(uuid, length: initial.count, limit: limit) }
            return (.stored(slot: addValue(initial), length: limit, onWrite: onWrite), permissions)
        case let .dynamic(read, write):
            return (.dynamic(read: read, write: write, length: limit), permissions)
        case .serviceChanged:
            return (.serviceChanged, AttributePermissions.none)
        case .clientSupportedFeatures:
            return (.clientSupportedFeatures, permissions)
        case .databaseHash:
            // Filled in once the whole database (and so its hash) exists.
            return (.constant([]), permissions)
        }
    }

    private mutating func addValue(_ initial: [UInt8]) -> Int {
        initialValues.append(initial)
        return initialValues.count - 1
    }

    private static func initialBytes(of value: GATTValue) -> [UInt8] {
        if case let .stored(initial, _) = value.source { return initial }
        return []
    }

    /// The characteristic's descriptors with the ones its properties call for added:
    /// Extended Properties first, then the caller's, then Client and Server
    /// Characteristic Configuration (Part G §3.3.3.1, §3.3.3.3, §3.3.3.4) — unless the
    /// caller placed them.
    private static func resolvedDescriptors(of c: GATTCharacteristic) throws(GATTDatabaseError) -> [GATTDescriptor] {
        let needsExtended = c.declaredProperties.contains(.extendedProperties)
        let needsClientConfiguration = !c.properties.isDisjoint(with: [.notify, .indicate])
        let needsServerConfiguration = c.properties.contains(.broadcast)
        var extended = 0, user = 0, client = 0, server = 0
        for d in c.descriptors {
            switch d.kind {
            case .extendedProperties:
                guard needsExtended else { throw .descriptorNotAllowed(d.uuid, characteristic: c.uuid) }
                extended += 1
            case .userDescription:
                user += 1
            case .clientConfiguration:
                guard needsClientConfiguration else { throw .descriptorNotAllowed(d.uuid, characteristic: c.uuid) }
                client += 1
            case .serverConfiguration:
                guard needsServerConfiguration else { throw .descriptorNotAllowed(d.uuid, characteristic: c.uuid) }
                server += 1
            case .other:
                if let short = d.uuid.uuid16, (0x2900...0x2905).contains(short) {
                    throw .descriptorNotAllowed(d.uuid, characteristic: c.uuid)
                }
            case .presentationFormat, .aggregateFormat:
                break
            }
            if extended > 1 || user > 1 || client > 1 || server > 1 {
                throw .duplicateDescriptor(d.uuid, characteristic: c.uuid)
            }
        }
        var list = c.descriptors
        if needsExtended && extended == 0 { list.insert(.extendedProperties(), at: 0) }
        if needsClientConfiguration && client == 0 { list.append(.clientCharacteristicConfiguration()) }
        if needsServerConfiguration && server == 0 { list.append(.serverCharacteristicConfiguration()) }
        return list
    }
}
