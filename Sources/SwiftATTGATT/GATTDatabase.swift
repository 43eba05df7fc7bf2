import SwiftATTPDU
import SwiftATTCore

/// A GATT server's attribute database, built once from services.
///
/// Handles are assigned in order from 0x0001 (Core 5.4 Vol 3 Part G §3: each service is
/// its declaration, its include declarations, then each characteristic's declaration,
/// value and descriptors). Unless left out, the GAP service (0x1800) and the GATT service
/// (0x1801: Service Changed, Client Supported Features, Database Hash) come first.
/// The database is immutable: a changed description is a new database, which a running
/// server takes with `GATTServer.replaceDatabase(_:changedRange:)`.
///
/// Lookups never scan the whole table: a handle finds its attribute through an index
/// table, a type finds its attributes (in handle order) through a dictionary, and service
/// and characteristic group ends are stored on their declarations.
public struct GATTDatabase: Sendable {
    /// Every attribute, in handle order.
    public let attributes: [Attribute]
    /// The services, built-in ones included, in handle order.
    public let services: [GATTService]
    /// The Database Hash (Part G §7.3.1) as a number; see `databaseHashValue`.
    public let databaseHash: UInt128
    /// The built-in Service Changed characteristic, when the GATT service is present.
    public let serviceChanged: GATTCharacteristic?
    /// The built-in Device Name characteristic, when the GAP service is present.
    public let deviceName: GATTCharacteristic?
    /// The handle of the Database Hash characteristic's value, when present.
    public let databaseHashValueHandle: UInt16?
    /// What the Server Supported Features characteristic announces (none when the
    /// database has no GATT service): a host serving `.enhancedATT` accepts Enhanced ATT
    /// bearers.
    public let serverFeatures: GATTServerFeatures

    /// A characteristic's place in the database.
    struct CharacteristicEntry: Sendable {
        let characteristic: GATTCharacteristic
        let declarationHandle: UInt16
        let endHandle: UInt16
        let clientConfigurationHandle: UInt16?
        /// Which Client Characteristic Configuration bits its properties allow.
        let allowedConfiguration: GATTClientConfiguration
        /// What reading the value needs (nil: it cannot be read), and where the server
        /// keeps it (nil: the application computes it): what every notification asks,
        /// kept here so that pushing one reads no `Attribute` (copying one retains its
        /// handlers).
        let readAccess: AttributePermissions.Access?
        let storedValue: StoredValue?
        var valueHandle: UInt16 { declarationHandle + 1 }
    }

    /// A value the server keeps: its slot in the value table and its length rule.
    struct StoredValue: Sendable {
        let slot: Int
        let length: GATTValue.Length
    }

    /// For each handle up to the last, the attribute's index, or -1 for an unused handle.
    let indexByHandle: [Int32]
    /// For each attribute type, the indices of its attributes in handle order.
    let indicesByType: [BluetoothUUID: [Int]]
    /// The starting contents of the values the server keeps, by slot.
    let initialValues: [[UInt8]]
    let characteristicsByObject: [ObjectIdentifier: CharacteristicEntry]
    let characteristicsByValueHandle: [UInt16: CharacteristicEntry]
    let descriptorHandles: [ObjectIdentifier: UInt16]
    let serviceRanges: [ObjectIdentifier: ClosedRange<UInt16>]

    /// Builds the database for `services`, after the GAP service (unless `genericAccess`
    /// is `nil`) and the GATT service (unless `includesGenericAttributeService` is false),
    /// whose Server Supported Features characteristic announces `serverFeatures` (none:
    /// the characteristic is left out, as the spec allows for a value of zero).
    public init(
        services: [GATTService],
        genericAccess: GATTGenericAccess? = GATTGenericAccess(),
        includesGenericAttributeService: Bool = true,
        serverFeatures: GATTServerFeatures = []
    ) throws(GATTDatabaseError) {
        var all: [GATTService] = []
        var deviceName: GATTCharacteristic? = nil
        var serviceChanged: GATTCharacteristic? = nil
        var hashCharacteristic: GATTCharacteristic? = nil
        if let genericAccess {
            let (service, name) = try Self.genericAccessService(genericAccess)
            all.append(service)
            deviceName = name
        }
        if includesGenericAttributeService {
            let (service, changed, hash) = Self.genericAttributeService(serverFeatures: serverFeatures)
            all.append(service)
            serviceChanged = changed
            hashCharacteristic = hash
        }
        all += services

        var builder = try GATTDatabaseBuilder(services: all)
        try builder.build()
        var attributes = builder.attributes

        var indexByHandle = [Int32](repeating: -1, count: Int(attributes.last?.handle ?? 0) + 1)
        var indicesByType: [BluetoothUUID: [Int]] = [:]
        for (i, a) in attributes.enumerated() {
            indexByHandle[Int(a.handle)] = Int32(i)
            indicesByType[a.type, default: []].append(i)
        }

        // The hash covers declarations and descriptors only, never its own value, so it
        // can be computed before that value is filled in.
        let hash = DatabaseHash.compute(attributes)
        var hashHandle: UInt16? = nil
        if let hashCharacteristic, let entry = builder.characteristics[ObjectIdentifier(hashCharacteristic)] {
            let index = Int(indexByHandle[Int(entry.valueHandle)])
            let old = attributes[index]
            attributes[index] = Attribute(
                handle: old.handle, type: old.type, role: old.role, permissions: old.permissions,
                groupEnd: old.groupEnd, storage: .constant(hash.littleEndianBytes))
            hashHandle = entry.valueHandle
        }

        var byValueHandle: [UInt16: CharacteristicEntry] = [:]
        for entry in builder.characteristics.values { byValueHandle[entry.valueHandle] = entry }

        self.attributes = attributes
        self.services = builder.orderedServices
        self.databaseHash = hash
        self.serviceChanged = serviceChanged
        self.deviceName = deviceName
        self.databaseHashValueHandle = hashHandle
        self.serverFeatures = includesGenericAttributeService ? serverFeatures : []
        self.indexByHandle = indexByHandle
        self.indicesByType = indicesByType
        self.initialValues = builder.initialValues
        self.characteristicsByObject = builder.characteristics
        self.characteristicsByValueHandle = byValueHandle
        self.descriptorHandles = builder.descriptorHandles
        self.serviceRanges = builder.serviceRanges
    }

    /// The 16 octets of the Database Hash characteristic: the hash, least significant
    /// octet first (it is a 128-bit number, sent as ATT sends numbers).
    public var databaseHashValue: [UInt8] { databaseHash.littleEndianBytes }

    /// The attribute with `handle`, or `nil` if no attribute has it.
    public func attribute(at handle: UInt16) -> Attribute? {
        index(of: handle).map { attributes[$0] }
    }

    /// The handle of `characteristic`'s value.
    public func valueHandle(of characteristic: GATTCharacteristic) -> UInt16? {
        characteristicsByObject[ObjectIdentifier(characteristic)]?.valueHandle
    }

    /// The handle of `characteristic`'s declaration.
    public func declarationHandle(of characteristic: GATTCharacteristic) -> UInt16? {
        characteristicsByObject[ObjectIdentifier(characteristic)]?.declarationHandle
    }

    /// The handle of `characteristic`'s Client Characteristic Configuration descriptor.
    public func clientConfigurationHandle(of characteristic: GATTCharacteristic) -> UInt16? {
        characteristicsByObject[ObjectIdentifier(characteristic)]?.clientConfigurationHandle
    }

    /// The handle of `descriptor`.
    public func handle(of descriptor: GATTDescriptor) -> UInt16? {
        descriptorHandles[ObjectIdentifier(descriptor)]
    }

    /// The handles `service` occupies, declaration to last descriptor.
    public func handles(of service: GATTService) -> ClosedRange<UInt16>? {
        serviceRanges[ObjectIdentifier(service)]
    }

    /// The characteristic whose value has `handle`.
    public func characteristic(valueHandle handle: UInt16) -> GATTCharacteristic? {
        characteristicsByValueHandle[handle]?.characteristic
    }

    // MARK: Lookup for the server

    func index(of handle: UInt16) -> Int? {
        let h = Int(handle)
        guard h < indexByHandle.count else { return nil }
        let i = indexByHandle[h]
        return i < 0 ? nil : Int(i)
    }

    /// The index of the first attribute whose handle is `handle` or later.
    func firstIndex(atOrAfter handle: UInt16) -> Int {
        var low = 0
        var high = attributes.count
        while low < high {
            let mid = (low + high) / 2
            if attributes[mid].handle < handle { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// The indices of the attributes of `type` with handles in `range`, in handle order.
    func indices(ofType type: BluetoothUUID, in range: ClosedRange<UInt16>) -> ArraySlice<Int> {
        guard let all = indicesByType[type] else { return [] }
        var low = 0
        var high = all.count
        while low < high {
            let mid = (low + high) / 2
            if attributes[all[mid]].handle < range.lowerBound { low = mid + 1 } else { high = mid }
        }
        var end = low
        while end < all.count, attributes[all[end]].handle <= range.upperBound { end += 1 }
        return all[low..<end]
    }
}
