import SwiftATTCore

/// The attribute types and SIG UUIDs the GATT server itself gives meaning to.
///
/// Declarations and descriptors: Core 5.4 Vol 3 Part G §3 (Table 3.1 and §3.3.3); the
/// GAP and GATT services: Vol 3 Part C §12 and Part G §7. Everything else in a database
/// is the application's.
public enum GATTAttributeType {
    /// The Primary Service declaration's type (Part G §3.1).
    public static let primaryService = BluetoothUUID(0x2800)
    /// The Secondary Service declaration's type (Part G §3.1).
    public static let secondaryService = BluetoothUUID(0x2801)
    /// The Include declaration's type (Part G §3.2).
    public static let include = BluetoothUUID(0x2802)
    /// The Characteristic declaration's type (Part G §3.3.1).
    public static let characteristic = BluetoothUUID(0x2803)

    /// The Characteristic Extended Properties descriptor (Part G §3.3.3.1).
    public static let characteristicExtendedProperties = BluetoothUUID(0x2900)
    /// The Characteristic User Description descriptor: a name for people (Part G §3.3.3.2).
    public static let characteristicUserDescription = BluetoothUUID(0x2901)
    /// The Client Characteristic Configuration descriptor: a client's subscription (Part G
    /// §3.3.3.3).
    public static let clientCharacteristicConfiguration = BluetoothUUID(0x2902)
    /// The Server Characteristic Configuration descriptor: broadcasting (Part G §3.3.3.4).
    public static let serverCharacteristicConfiguration = BluetoothUUID(0x2903)
    /// The Characteristic Presentation Format descriptor (Part G §3.3.3.5).
    public static let characteristicPresentationFormat = BluetoothUUID(0x2904)
    /// The Characteristic Aggregate Format descriptor (Part G §3.3.3.6).
    public static let characteristicAggregateFormat = BluetoothUUID(0x2905)

    /// The GAP service (Vol 3 Part C §12).
    public static let genericAccessService = BluetoothUUID(0x1800)
    /// The GATT service (Part G §7).
    public static let genericAttributeService = BluetoothUUID(0x1801)
    /// GAP's Device Name characteristic.
    public static let deviceName = BluetoothUUID(0x2A00)
    /// GAP's Appearance characteristic.
    public static let appearance = BluetoothUUID(0x2A01)
    /// GATT's Service Changed characteristic: handle ranges whose attributes changed (Part G §7.1).
    public static let serviceChanged = BluetoothUUID(0x2A05)
    /// GATT's Client Supported Features characteristic (Part G §7.2).
    public static let clientSupportedFeatures = BluetoothUUID(0x2B29)
    /// GATT's Database Hash characteristic (Part G §7.3).
    public static let databaseHash = BluetoothUUID(0x2B2A)
    /// GATT's Server Supported Features characteristic (Part G §7.4).
    public static let serverSupportedFeatures = BluetoothUUID(0x2B3A)

    /// The form a type takes in the database and on the wire: 16 bits when the UUID has a
    /// 16-bit alias, otherwise 128 bits (ATT carries no 32-bit UUIDs, Part G §2.5.4).
    static func normalized(_ uuid: BluetoothUUID) -> BluetoothUUID {
        uuid.uuid16 != nil ? uuid.shortened : uuid.widened
    }
}
