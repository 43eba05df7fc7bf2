import SwiftATTCore

/// Why a description cannot become a database. Each names the service, characteristic or
/// descriptor (by UUID) at fault.
public enum GATTDatabaseError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The services need more handles than 0x0001–0xFFFF.
    case handlesExhausted(service: BluetoothUUID)
    /// A service's requested start handle is 0x0000 or already used by an earlier service.
    case startHandleUnavailable(service: BluetoothUUID, requested: UInt16, nextFree: Int)
    /// The same service object appears twice.
    case duplicateService(BluetoothUUID)
    /// The same characteristic object appears twice.
    case duplicateCharacteristic(BluetoothUUID)
    /// The same descriptor object appears twice, or a characteristic has two of a
    /// descriptor it may have only one of (0x2900–0x2903).
    case duplicateDescriptor(BluetoothUUID, characteristic: BluetoothUUID)
    /// An included service is not one of the database's services.
    case includedServiceMissing(BluetoothUUID, including: BluetoothUUID)
    /// A descriptor the characteristic's properties do not call for (a configuration
    /// descriptor without notify, indicate or broadcast; Extended Properties without
    /// extended properties), or a GATT-defined type given as a plain descriptor.
    case descriptorNotAllowed(BluetoothUUID, characteristic: BluetoothUUID)
    /// An Aggregate Format descriptor lists something other than Presentation Format
    /// descriptors of this database.
    case aggregateFormatInvalid(characteristic: BluetoothUUID)
    /// A value's length limit is above 512 octets or below zero, or its initial bytes do
    /// not fit it.
    case invalidValueLength(BluetoothUUID, length: Int, limit: GATTValue.Length)
    /// The GAP Device Name is longer than 248 octets (Core 5.4 Vol 3 Part C §12.1).
    case deviceNameTooLong(Int)

    public var description: String {
        switch self {
        case let .handlesExhausted(s):
            return "service \(s) does not fit below handle 0xFFFF"
        case let .startHandleUnavailable(s, requested, next):
            return "service \(s) asks for start handle \(Self.hex(requested)) but the next free handle is \(Self.hex(UInt16(clamping: next)))"
        case let .duplicateService(s):
            return "service \(s) appears twice"
        case let .duplicateCharacteristic(c):
            return "characteristic \(c) appears twice"
        case let .duplicateDescriptor(d, c):
            return "descriptor \(d) appears twice in characteristic \(c)"
        case let .includedServiceMissing(s, including):
            return "service \(including) includes \(s), which is not in the database"
        case let .descriptorNotAllowed(d, c):
            return "characteristic \(c) cannot have descriptor \(d) (its properties do not call for it, or the type needs its own constructor)"
        case let .aggregateFormatInvalid(c):
            return "characteristic \(c): an Aggregate Format descriptor must list Presentation Format descriptors of the same database"
        case let .invalidValueLength(u, length, limit):
            return "value of \(u): \(length) octets do not fit \(limit) (values are at most 512 octets)"
        case let .deviceNameTooLong(n):
            return "device name is \(n) octets; GAP allows 248"
        }
    }

    private static func hex(_ v: UInt16) -> String {
        let s = String(v, radix: 16, uppercase: true)
        return "0x" + String(repeating: "0", count: 4 - s.count) + s
    }
}
