import SwiftATTCore

extension GATTDatabase {
    /// The GAP service (Core 5.4 Vol 3 Part C §12): Device Name, Appearance.
    static func genericAccessService(_ gap: GATTGenericAccess) throws(GATTDatabaseError) -> (GATTService, deviceName: GATTCharacteristic) {
        let name = Array(gap.deviceName.utf8)
        guard name.count <= 248 else { throw .deviceNameTooLong(name.count) }
        let deviceName = GATTCharacteristic(
            uuid: GATTAttributeType.deviceName,
            properties: gap.deviceNameWritable ? [.read, .write] : [.read],
            value: .bytes(name, length: .variable(maximum: 248)))
        let appearance = GATTCharacteristic(
            uuid: GATTAttributeType.appearance,
            properties: [.read],
            value: .fixed([UInt8(truncatingIfNeeded: gap.appearance), UInt8(truncatingIfNeeded: gap.appearance >> 8)]))
        let service = GATTService(uuid: GATTAttributeType.genericAccessService, characteristics: [deviceName, appearance])
        return (service, deviceName)
    }

    /// The GATT service (Core 5.4 Vol 3 Part G §7): Service Changed (indicate only, its
    /// value never read), Client Supported Features (read/write, per client), Database
    /// Hash (read). With both Service Changed and Database Hash present, the server must
    /// support Robust Caching (§2.5.2.1), which `GATTServer` does.
    /// With `serverFeatures`, Server Supported Features (Part G §7.4) says which the
    /// server has (Enhanced ATT).
    static func genericAttributeService(serverFeatures: GATTServerFeatures = [])
        -> (GATTService, serviceChanged: GATTCharacteristic, databaseHash: GATTCharacteristic) {
        let changed = GATTCharacteristic(
            uuid: GATTAttributeType.serviceChanged,
            properties: [.indicate],
            permissions: AttributePermissions.none,
            value: GATTValue(source: .serviceChanged, length: .fixed(4)))
        let features = GATTCharacteristic(
            uuid: GATTAttributeType.clientSupportedFeatures,
            properties: [.read, .write],
            value: GATTValue(source: .clientSupportedFeatures, length: .variable(maximum: Attribute.clientSupportedFeaturesMaximum)))
        let hash = GATTCharacteristic(
            uuid: GATTAttributeType.databaseHash,
            properties: [.read],
            value: GATTValue(source: .databaseHash, length: .fixed(16)))
        var characteristics = [changed, features, hash]
        if !serverFeatures.isEmpty {
            characteristics.append(GATTCharacteristic(
                uuid: GATTAttributeType.serverSupportedFeatures, properties: [.read], value: .fixed([serverFeatures.rawValue])))
        }
        let service = GATTService(uuid: GATTAttributeType.genericAttributeService, characteristics: characteristics)
        return (service, changed, hash)
    }
}
