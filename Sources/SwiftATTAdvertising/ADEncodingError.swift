import SwiftATTCore

/// Why items could not be written as advertising data.
///
/// Legacy advertising and scan response data hold 31 octets (Core 5.4 Vol 3 Part C §11);
/// extended advertising data up to 1650 (Vol 4 Part E §7.8.54). Every AD structure's Length
/// octet covers the AD type and the data, so one structure carries at most 254 data octets.
public enum ADEncodingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The payload would need `needed` octets; the limit is `limit`.
    case tooLong(needed: Int, limit: Int)
    /// One structure's data is longer than the 254 octets a Length octet can describe.
    case structureTooLong(ADType, dataLength: Int)
    /// Data that breaks its AD type's length rule.
    case invalidData(ADDecodingError)
    /// A UUID that has no alias of the list's width (a vendor UUID in a 16-bit list).
    case uuidNotRepresentable(BluetoothUUID, width: BluetoothUUID.Width)
    /// A beacon field of the wrong size (an Eddystone namespace that is not 10 bytes…).
    case invalidFieldLength(field: String, length: Int, required: Int)
    /// A URL an Eddystone-URL frame cannot carry: its scheme is not one of the four the
    /// frame encodes, or it holds a character outside printable ASCII.
    case unencodableEddystoneURL(String)
    /// An Eddystone-URL whose compressed form is longer than the frame's 17 octets.
    case eddystoneURLTooLong(encodedLength: Int)

    /// The largest data length of one AD structure.
    public static let maximumStructureDataLength = 254

    public var description: String {
        switch self {
        case let .tooLong(needed, limit):
            return "advertising data needs \(needed) bytes; the limit is \(limit)"
        case let .structureTooLong(type, dataLength):
            return "\(type.name ?? type.description): \(dataLength) bytes of data; one AD structure holds at most \(Self.maximumStructureDataLength)"
        case let .invalidData(error):
            return error.description
        case let .uuidNotRepresentable(uuid, width):
            return "UUID \(uuid) has no \(width.byteCount * 8)-bit form"
        case let .invalidFieldLength(field, length, required):
            return "\(field) is \(length) bytes; must be \(required)"
        case let .unencodableEddystoneURL(url):
            return "Eddystone-URL cannot encode \"\(url)\": it must start with http:// or https:// and hold only printable ASCII"
        case let .eddystoneURLTooLong(n):
            return "Eddystone-URL encodes to \(n) bytes after the scheme; the frame holds 17"
        }
    }
}
