import SwiftATTCore

/// A characteristic descriptor. Core 5.4 Vol 3 Part G §3.3.3.
///
/// The GATT-defined descriptors have constructors that build their values; any other
/// type is `init(uuid:permissions:value:)`. The Extended Properties and the two
/// configuration descriptors are placeholders: the database writes their values (from
/// the characteristic's properties, or per connection), and adds them even when they
/// are not listed.
public final class GATTDescriptor: Sendable {
    enum Kind: Sendable {
        case extendedProperties
        case userDescription
        case clientConfiguration
        case serverConfiguration
        case presentationFormat
        case aggregateFormat([GATTDescriptor])
        case other
    }

    /// The descriptor's type.
    public let uuid: BluetoothUUID
    /// Whether it may be read and written, and what the link needs first.
    public let permissions: AttributePermissions
    /// Where the value comes from and how long it may be.
    public let value: GATTValue
    let kind: Kind

    init(kind: Kind, uuid: BluetoothUUID, permissions: AttributePermissions, value: GATTValue) {
        self.kind = kind
        self.uuid = uuid
        self.permissions = permissions
        self.value = value
    }

    /// A descriptor of any type the GATT server does not manage itself. The database
    /// rejects the GATT-defined types here (0x2900–0x2905): use their constructors.
    public convenience init(uuid: BluetoothUUID, permissions: AttributePermissions = .readable, value: GATTValue) {
        self.init(kind: .other, uuid: uuid, permissions: permissions, value: value)
    }

    /// Characteristic Extended Properties (0x2900): its value comes from the
    /// characteristic. List it only to choose its position.
    public static func extendedProperties() -> GATTDescriptor {
        GATTDescriptor(kind: .extendedProperties, uuid: GATTAttributeType.characteristicExtendedProperties,
                       permissions: .readable, value: .fixed([0, 0]))
    }

    /// Characteristic User Description (0x2901): UTF-8 text, writable by clients exactly
    /// when the characteristic has the Writable Auxiliaries extended property (§3.3.3.2).
    public static func userDescription(_ text: String) -> GATTDescriptor {
        GATTDescriptor(kind: .userDescription, uuid: GATTAttributeType.characteristicUserDescription,
                       permissions: .readable, value: .text(text))
    }

    /// Client Characteristic Configuration (0x2902), one value per client (§3.3.3.3).
    /// List it to choose its position or its permissions (readable and writable without
    /// security by default).
    public static func clientCharacteristicConfiguration(permissions: AttributePermissions = .readWrite) -> GATTDescriptor {
        GATTDescriptor(kind: .clientConfiguration, uuid: GATTAttributeType.clientCharacteristicConfiguration,
                       permissions: permissions, value: .fixed([0, 0]))
    }

    /// Server Characteristic Configuration (0x2903), one value for all clients (§3.3.3.4).
    public static func serverCharacteristicConfiguration(permissions: AttributePermissions = .readWrite) -> GATTDescriptor {
        GATTDescriptor(kind: .serverConfiguration, uuid: GATTAttributeType.serverCharacteristicConfiguration,
                       permissions: permissions, value: .fixed([0, 0]))
    }

    /// Characteristic Presentation Format (0x2904), read-only (§3.3.3.5).
    public static func presentationFormat(_ format: GATTPresentationFormat) -> GATTDescriptor {
        GATTDescriptor(kind: .presentationFormat, uuid: GATTAttributeType.characteristicPresentationFormat,
                       permissions: .readable, value: .fixed(format.encoded))
    }

    /// Characteristic Aggregate Format (0x2905): the handles of `formats`, Presentation
    /// Format descriptors of the same database, in this order (§3.3.3.6).
    public static func aggregateFormat(_ formats: [GATTDescriptor]) -> GATTDescriptor {
        GATTDescriptor(kind: .aggregateFormat(formats), uuid: GATTAttributeType.characteristicAggregateFormat,
                       permissions: .readable, value: .bytes([]))
    }
}
