import SwiftATTCore

/// The Error Code carried by an Error Response.
///
/// Core 5.4 Vol 3 Part F §3.4.1.1 Table 3.4 (0x01–0x13), application errors 0x80–0x9F
/// (defined by each higher-layer specification), and the common profile and service
/// error codes 0xE0–0xFF of Core Specification Supplement Part B §1.2. A struct rather
/// than an enum so any octet a peer sends is representable.
public struct ATTErrorCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt8

    @inlinable public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// The code of octet `rawValue`.
    @inlinable public init(_ rawValue: UInt8) { self.rawValue = rawValue }

    /// The handle is not valid on this server.
    public static let invalidHandle = ATTErrorCode(0x01)
    /// The attribute's value cannot be read.
    public static let readNotPermitted = ATTErrorCode(0x02)
    /// The attribute's value cannot be written.
    public static let writeNotPermitted = ATTErrorCode(0x03)
    /// The PDU was invalid.
    public static let invalidPDU = ATTErrorCode(0x04)
    /// The link must be authenticated (paired with MITM protection) first.
    public static let insufficientAuthentication = ATTErrorCode(0x05)
    /// The server does not support the request.
    public static let requestNotSupported = ATTErrorCode(0x06)
    /// The offset is past the end of the value.
    public static let invalidOffset = ATTErrorCode(0x07)
    /// The client must be authorized first.
    public static let insufficientAuthorization = ATTErrorCode(0x08)
    /// Too many prepared writes are queued.
    public static let prepareQueueFull = ATTErrorCode(0x09)
    /// No attribute in the handle range matches.
    public static let attributeNotFound = ATTErrorCode(0x0A)
    /// The attribute cannot be read or written with Read Blob or prepared writes.
    public static let attributeNotLong = ATTErrorCode(0x0B)
    /// The link's encryption key is too short.
    public static let encryptionKeySizeTooShort = ATTErrorCode(0x0C)
    /// The value's length is wrong for the attribute.
    public static let invalidAttributeValueLength = ATTErrorCode(0x0D)
    /// The request met an error that was unlikely, and could not be completed.
    public static let unlikelyError = ATTErrorCode(0x0E)
    /// The link must be encrypted first.
    public static let insufficientEncryption = ATTErrorCode(0x0F)
    /// The type is not a grouping attribute the server knows.
    public static let unsupportedGroupType = ATTErrorCode(0x10)
    /// The server lacks the resources to complete the request.
    public static let insufficientResources = ATTErrorCode(0x11)
    /// The client's view of the database is stale: rediscover before asking again.
    public static let databaseOutOfSync = ATTErrorCode(0x12)
    /// The value is not allowed.
    public static let valueNotAllowed = ATTErrorCode(0x13)
    /// Write Request Rejected (Supplement Part B §1.2.1): the write cannot be done now.
    public static let writeRequestRejected = ATTErrorCode(0xFC)
    /// Client Characteristic Configuration Descriptor Improperly Configured (Supplement Part B
    /// §1.2.2).
    public static let cccdImproperlyConfigured = ATTErrorCode(0xFD)
    /// Procedure Already in Progress (Supplement Part B §1.2.3).
    public static let procedureAlreadyInProgress = ATTErrorCode(0xFE)
    /// Out of Range (Supplement Part B §1.2.4): the value is outside what the attribute takes.
    public static let outOfRange = ATTErrorCode(0xFF)

    /// Which range of Table 3.4 the code falls in.
    public enum Range: Sendable, Equatable {
        /// 0x01–0x13: defined by the Core specification.
        case core
        /// Reserved for future use: 0x00, 0x14–0x7F, 0xA0–0xDF.
        case reserved
        /// 0x80–0x9F: defined by the higher-layer specification the server follows.
        case application
        /// 0xE0–0xFF: the common profile and service error codes.
        case commonProfile
    }

    /// Which range of Table 3.4 the code falls in.
    public var range: Range {
        switch rawValue {
        case 0x01...0x13: return .core
        case 0x80...0x9F: return .application
        case 0xE0...0xFF: return .commonProfile
        default: return .reserved
        }
    }

    /// The spec's name: "Attribute Not Found", "Application Error 0x80", "Reserved 0x14".
    public var name: String {
        switch rawValue {
        case 0x01: return "Invalid Handle"
        case 0x02: return "Read Not Permitted"
        case 0x03: return "Write Not Permitted"
        case 0x04: return "Invalid PDU"
        case 0x05: return "Insufficient Authentication"
        case 0x06: return "Request Not Supported"
        case 0x07: return "Invalid Offset"
        case 0x08: return "Insufficient Authorization"
        case 0x09: return "Prepare Queue Full"
        case 0x0A: return "Attribute Not Found"
        case 0x0B: return "Attribute Not Long"
        case 0x0C: return "Encryption Key Size Too Short"
        case 0x0D: return "Invalid Attribute Value Length"
        case 0x0E: return "Unlikely Error"
        case 0x0F: return "Insufficient Encryption"
        case 0x10: return "Unsupported Group Type"
        case 0x11: return "Insufficient Resources"
        case 0x12: return "Database Out Of Sync"
        case 0x13: return "Value Not Allowed"
        case 0xFC: return "Write Request Rejected"
        case 0xFD: return "Client Characteristic Configuration Descriptor Improperly Configured"
        case 0xFE: return "Procedure Already in Progress"
        case 0xFF: return "Out of Range"
        default:
            let hex = (rawValue < 0x10 ? "0x0" : "0x") + String(rawValue, radix: 16, uppercase: true)
            switch range {
            case .application: return "Application Error \(hex)"
            case .commonProfile: return "Common Profile Error \(hex)"
            default: return "Reserved \(hex)"
            }
        }
    }

    public var description: String {
        "\(name) (0x\(rawValue < 0x10 ? "0" : "")\(String(rawValue, radix: 16)))"
    }
}
