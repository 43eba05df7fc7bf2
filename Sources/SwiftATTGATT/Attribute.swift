import SwiftATTCore

/// One entry of a `GATTDatabase`: a handle, a type, permissions and a value source.
///
/// Core 5.4 Vol 3 Part F §3.2 defines the attribute; Part G §3 the declarations and
/// descriptors a GATT database is made of. Entries are built by `GATTDatabase` from
/// services and characteristics; a server reads and writes values through them.
public struct Attribute: Sendable {
    /// What the attribute is within the GATT hierarchy.
    public enum Role: Sendable, Hashable {
        /// A primary service's declaration.
        case primaryService
        /// A secondary service's declaration.
        case secondaryService
        /// An include declaration.
        case include
        /// A characteristic's declaration.
        case characteristicDeclaration
        /// A characteristic's value.
        case characteristicValue
        /// A characteristic descriptor.
        case descriptor
    }

    /// Where the value lives.
    enum Storage: Sendable {
        /// Fixed when the database is built (declarations, format descriptors, the hash).
        case constant([UInt8])
        /// Kept by the server in its value table, one copy for all clients.
        case stored(slot: Int, length: GATTValue.Length, onWrite: GATTWriteHandler?)
        /// Computed by the application.
        case dynamic(read: GATTReadHandler?, write: GATTWriteHandler?, length: GATTValue.Length)
        /// A Client Characteristic Configuration descriptor: per client, for the
        /// characteristic whose value is at `valueHandle`.
        case clientConfiguration(valueHandle: UInt16, allowed: GATTClientConfiguration)
        /// A Server Characteristic Configuration descriptor, kept in the value table.
        case serverConfiguration(slot: Int)
        /// The GATT service's Client Supported Features: per client.
        case clientSupportedFeatures
        /// The GATT service's Service Changed value: only ever indicated.
        case serviceChanged
    }

    /// The attribute's handle in the database.
    public let handle: UInt16
    /// The attribute type, 16 or 128 bits as it appears on the wire.
    public let type: BluetoothUUID
    /// What the attribute is in the GATT hierarchy.
    public let role: Role
    /// Whether it may be read and written, and what the link needs first.
    public let permissions: AttributePermissions
    /// The last handle of the group this attribute starts: the service's for a service
    /// declaration, the characteristic definition's for a characteristic declaration,
    /// the attribute's own handle otherwise (Part G §2.5.3, Part F §3.4.3.4).
    public let groupEnd: UInt16
    let storage: Storage

    /// The value when it is fixed at build time (declarations, Extended Properties,
    /// Presentation and Aggregate Format, the Database Hash); `nil` otherwise.
    public var constantValue: [UInt8]? {
        if case let .constant(bytes) = storage { return bytes }
        return nil
    }

    /// The value's length when it never changes, `nil` for variable-length values.
    var fixedLength: Int? {
        switch storage {
        case let .constant(bytes): return bytes.count
        case let .stored(_, length, _), let .dynamic(_, _, length):
            if case let .fixed(n) = length { return n }
            return nil
        case .clientConfiguration, .serverConfiguration: return 2
        case .serviceChanged: return 4
        case .clientSupportedFeatures: return nil
        }
    }

    /// Client Supported Features defines bits in one octet (Part G §7.2, Table 7.6); a few
    /// more octets leave room for future bits without letting a client store a blob.
    /// (A file that keeps a bonded client's value holds no more either.)
    public static let clientSupportedFeaturesMaximum = 8

    /// The longest value a write may leave.
    var maximumLength: Int {
        switch storage {
        case let .constant(bytes): return bytes.count
        case let .stored(_, length, _), let .dynamic(_, _, length): return length.maximum
        case .clientConfiguration, .serverConfiguration: return 2
        case .serviceChanged: return 4
        case .clientSupportedFeatures: return Self.clientSupportedFeaturesMaximum
        }
    }
}
