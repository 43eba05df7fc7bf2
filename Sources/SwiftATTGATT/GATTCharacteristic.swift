import SwiftATTCore

/// A characteristic: a declaration, a value and its descriptors. Core 5.4 Vol 3 Part G §3.3.
///
/// A description, immutable once made; `GATTDatabase` gives it handles. The same object
/// is how the application names it later (`GATTServer.update(_:value:)`). Descriptors
/// the properties call for are added by the database: the Extended Properties descriptor
/// when `extendedProperties` is not empty (or the 0x80 bit is set), a Client
/// Characteristic Configuration descriptor for notify or indicate, a Server
/// Characteristic Configuration descriptor for broadcast. Put the matching placeholder
/// (`GATTDescriptor.extendedProperties()` and friends) in `descriptors` to choose where
/// it goes or, for the configuration descriptors, its permissions.
public final class GATTCharacteristic: Sendable {
    /// The characteristic's type.
    public let uuid: BluetoothUUID
    /// What clients may do with the value, as the declaration announces it.
    public let properties: Properties
    /// The Extended Properties descriptor's bits (reliable write, writable auxiliaries).
    public let extendedProperties: ExtendedProperties
    /// What the server enforces on the value; derived from `properties` unless given.
    public let permissions: AttributePermissions
    /// Where the value comes from and how long it may be.
    public let value: GATTValue
    /// The descriptors, in the order they get handles.
    public let descriptors: [GATTDescriptor]

    /// A characteristic. Without `permissions`, the value is readable (no security) when
    /// `properties` has `read`, writable when it has `write`, `writeWithoutResponse`,
    /// `authenticatedSignedWrites` or the Reliable Write extended property. A `dynamic`
    /// value without a read (write) handler is never readable (writable).
    public init(
        uuid: BluetoothUUID,
        properties: Properties,
        extendedProperties: ExtendedProperties = [],
        permissions: AttributePermissions? = nil,
        value: GATTValue = .bytes([]),
        descriptors: [GATTDescriptor] = []
    ) {
        self.uuid = uuid
        self.properties = properties
        self.extendedProperties = extendedProperties
        self.permissions = permissions ?? Self.defaultPermissions(properties, extendedProperties)
        self.value = value
        self.descriptors = descriptors
    }

    /// The properties octet of the declaration: `properties`, plus the Extended
    /// Properties bit whenever there are extended properties.
    public var declaredProperties: Properties {
        extendedProperties.isEmpty ? properties : properties.union(.extendedProperties)
    }

    private static func defaultPermissions(_ p: Properties, _ e: ExtendedProperties) -> AttributePermissions {
        let writes: Properties = [.write, .writeWithoutResponse, .authenticatedSignedWrites]
        return AttributePermissions(
            read: p.contains(.read) ? .open : nil,
            write: !p.isDisjoint(with: writes) || e.contains(.reliableWrite) ? .open : nil
        )
    }
}

extension GATTCharacteristic {
    /// The Characteristic Properties bit field. Core 5.4 Vol 3 Part G §3.3.1.1, Table 3.5.
    public struct Properties: OptionSet, Sendable, Hashable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        /// The value may be broadcast (Server Characteristic Configuration descriptor).
        public static let broadcast = Properties(rawValue: 0x01)
        /// The value may be read.
        public static let read = Properties(rawValue: 0x02)
        /// The value may be written with Write Command (no answer).
        public static let writeWithoutResponse = Properties(rawValue: 0x04)
        /// The value may be written with Write Request.
        public static let write = Properties(rawValue: 0x08)
        /// The server notifies the value to subscribed clients.
        public static let notify = Properties(rawValue: 0x10)
        /// The server indicates the value to subscribed clients, who confirm it.
        public static let indicate = Properties(rawValue: 0x20)
        /// The value may be written with Signed Write Command.
        public static let authenticatedSignedWrites = Properties(rawValue: 0x40)
        /// More properties are in the Extended Properties descriptor.
        public static let extendedProperties = Properties(rawValue: 0x80)
    }

    /// The Characteristic Extended Properties bit field. Core 5.4 Vol 3 Part G §3.3.3.1, Table 3.11.
    public struct ExtendedProperties: OptionSet, Sendable, Hashable {
        public let rawValue: UInt16
        public init(rawValue: UInt16) { self.rawValue = rawValue }

        /// Reliable writes (prepared writes the client verifies, then executes).
        public static let reliableWrite = ExtendedProperties(rawValue: 0x0001)
        /// The descriptors (the User Description) are writable.
        public static let writableAuxiliaries = ExtendedProperties(rawValue: 0x0002)
    }
}
