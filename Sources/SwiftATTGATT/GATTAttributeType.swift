import SwiftATTCore

/// The attribute types and SIG UUIDs the GATT server itself gives meaning to.
///
/// Declarations and descriptors: Core 5.4 Vol 3 Part G §3 (Table 3.1 and §3.3.3); the
/// GAP and GATT services: Vol 3 Part C §12 and Part G §7. Everything else in a database
/// is the application's.
public enum GATTAttributeType {
    public static let primaryService = BluetoothUUID(0x2800)
    public static let secondaryService = BluetoothUUID(0x2801)
    public static let include = BluetoothUUID(0x2802)
    public static let characteristic = BluetoothUUID(0x2803)

    public static let characteristicExtendedProperties = BluetoothUUID(0x2900)
    public static let characteristicUserDescription = BluetoothUUID(0x2901)
    public static let clientCharacteristicConfiguration = BluetoothUUID(0x2902)
    public static let serverCharacteristicConfiguration = BluetoothUUID(0x2903)
    public static let characteristicPresentationFormat = BluetoothUUID(0x2904)
    public static let characteristicAggregateFormat = BluetoothUUID(0x2905)

    public static let genericAccessService = BluetoothUUID(0x1800)
    public static let genericAttributeService = BluetoothUUID(0x1801)
    public static let deviceName = BluetoothUUID(0x2A00)
    public static let appearance = BluetoothUUID(0x2A01)
    public static let serviceChanged = BluetoothUUID(0x2A05)
    public static let clientSupportedFeatures = BluetoothUUID(0x2B29)
    public static let databaseHash = BluetoothUUID(0x2B2A)
    public static let serverSupportedFeatures = BluetoothUUID(0x2B3A)

    /// The form a type takes in the database and on the wire: 16 bits when the UUID has a
    /// 16-bit alias, otherwise 128 bits (ATT carries no 32-bit UUIDs, Part G §2.5.4).
    static func normalized(_ uuid: BluetoothUUID) -> BluetoothUUID {
        uuid.uuid16 != nil ? uuid.shortened : uuid.widened
    }
}
