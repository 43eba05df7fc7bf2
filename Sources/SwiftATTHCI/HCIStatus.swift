/// An HCI status / error code. Core 5.4 Vol 1 Part F §1.3.
///
/// A struct so any octet a controller sends is representable; names for every code the
/// spec defines.
public struct HCIStatus: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt8

    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// The status code `rawValue`.
    public init(_ rawValue: UInt8) { self.rawValue = rawValue }

    /// Success (0x00).
    public static let success = HCIStatus(0x00)
    /// Unknown HCI Command (0x01).
    public static let unknownCommand = HCIStatus(0x01)
    /// Unknown Connection Identifier (0x02).
    public static let unknownConnectionIdentifier = HCIStatus(0x02)
    /// Hardware Failure (0x03).
    public static let hardwareFailure = HCIStatus(0x03)
    /// Authentication Failure (0x05).
    public static let authenticationFailure = HCIStatus(0x05)
    /// PIN or Key Missing (0x06).
    public static let pinOrKeyMissing = HCIStatus(0x06)
    /// Memory Capacity Exceeded (0x07).
    public static let memoryCapacityExceeded = HCIStatus(0x07)
    /// Connection Timeout (0x08).
    public static let connectionTimeout = HCIStatus(0x08)
    /// Command Disallowed (0x0C).
    public static let commandDisallowed = HCIStatus(0x0C)
    /// Unsupported Feature or Parameter Value (0x11).
    public static let unsupportedFeatureOrParameterValue = HCIStatus(0x11)
    /// Invalid HCI Command Parameters (0x12).
    public static let invalidCommandParameters = HCIStatus(0x12)
    /// Remote User Terminated Connection (0x13).
    public static let remoteUserTerminatedConnection = HCIStatus(0x13)
    /// Connection Terminated By Local Host (0x16).
    public static let connectionTerminatedByLocalHost = HCIStatus(0x16)
    /// Unspecified Error (0x1F).
    public static let unspecifiedError = HCIStatus(0x1F)
    /// Insufficient Security (0x2F).
    public static let insufficientSecurity = HCIStatus(0x2F)
    /// Unacceptable Connection Parameters (0x3B).
    public static let unacceptableConnectionParameters = HCIStatus(0x3B)
    /// Connection Terminated due to MIC Failure (0x3D).
    public static let connectionTerminatedDueToMICFailure = HCIStatus(0x3D)
    /// Connection Failed to be Established / Synchronization Timeout (0x3E).
    public static let connectionFailedToBeEstablished = HCIStatus(0x3E)
    /// Unknown Advertising Identifier (0x42).
    public static let unknownAdvertisingIdentifier = HCIStatus(0x42)
    /// Operation Cancelled by Host (0x44).
    public static let operationCancelledByHost = HCIStatus(0x44)

    /// Whether the code is Success (0x00).
    public var isSuccess: Bool { rawValue == 0 }

    /// The spec's name ("Connection Failed to be Established").
    public var name: String {
        switch rawValue {
        case 0x00: return "Success"
        case 0x01: return "Unknown HCI Command"
        case 0x02: return "Unknown Connection Identifier"
        case 0x03: return "Hardware Failure"
        case 0x04: return "Page Timeout"
        case 0x05: return "Authentication Failure"
        case 0x06: return "PIN or Key Missing"
        case 0x07: return "Memory Capacity Exceeded"
        case 0x08: return "Connection Timeout"
        case 0x09: return "Connection Limit Exceeded"
        case 0x0A: return "Synchronous Connection Limit To A Device Exceeded"
        case 0x0B: return "Connection Already Exists"
        case 0x0C: return "Command Disallowed"
        case 0x0D: return "Connection Rejected due to Limited Resources"
        case 0x0E: return "Connection Rejected Due To Security Reasons"
        case 0x0F: return "Connection Rejected due to Unacceptable BD_ADDR"
        case 0x10: return "Connection Accept Timeout Exceeded"
        case 0x11: return "Unsupported Feature or Parameter Value"
        case 0x12: return "Invalid HCI Command Parameters"
        case 0x13: return "Remote User Terminated Connection"
        case 0x14: return "Remote Device Terminated Connection due to Low Resources"
        case 0x15: return "Remote Device Terminated Connection due to Power Off"
        case 0x16: return "Connection Terminated By Local Host"
        case 0x17: return "Repeated Attempts"
        case 0x18: return "Pairing Not Allowed"
        case 0x19: return "Unknown LMP PDU"
        case 0x1A: return "Unsupported Remote Feature"
        case 0x1B: return "SCO Offset Rejected"
        case 0x1C: return "SCO Interval Rejected"
        case 0x1D: return "SCO Air Mode Rejected"
        case 0x1E: return "Invalid LMP Parameters / Invalid LL Parameters"
        case 0x1F: return "Unspecified Error"
        case 0x20: return "Unsupported LMP Parameter Value / Unsupported LL Parameter Value"
        case 0x21: return "Role Change Not Allowed"
        case 0x22: return "LMP Response Timeout / LL Response Timeout"
        case 0x23: return "LMP Error Transaction Collision / LL Procedure Collision"
        case 0x24: return "LMP PDU Not Allowed"
        case 0x25: return "Encryption Mode Not Acceptable"
        case 0x26: return "Link Key cannot be Changed"
        case 0x27: return "Requested QoS Not Supported"
        case 0x28: return "Instant Passed"
        case 0x29: return "Pairing With Unit Key Not Supported"
        case 0x2A: return "Different Transaction Collision"
        case 0x2C: return "QoS Unacceptable Parameter"
        case 0x2D: return "QoS Rejected"
        case 0x2E: return "Channel Classification Not Supported"
        case 0x2F: return "Insufficient Security"
        case 0x30: return "Parameter Out Of Mandatory Range"
        case 0x32: return "Role Switch Pending"
        case 0x34: return "Reserved Slot Violation"
        case 0x35: return "Role Switch Failed"
        case 0x36: return "Extended Inquiry Response Too Large"
        case 0x37: return "Secure Simple Pairing Not Supported By Host"
        case 0x38: return "Host Busy - Pairing"
        case 0x39: return "Connection Rejected due to No Suitable Channel Found"
        case 0x3A: return "Controller Busy"
        case 0x3B: return "Unacceptable Connection Parameters"
        case 0x3C: return "Advertising Timeout"
        case 0x3D: return "Connection Terminated due to MIC Failure"
        case 0x3E: return "Connection Failed to be Established / Synchronization Timeout"
        case 0x40: return "Coarse Clock Adjustment Rejected but Will Try to Adjust Using Clock Dragging"
        case 0x41: return "Type0 Submap Not Defined"
        case 0x42: return "Unknown Advertising Identifier"
        case 0x43: return "Limit Reached"
        case 0x44: return "Operation Cancelled by Host"
        case 0x45: return "Packet Too Long"
        case 0x46: return "Too Late"
        case 0x47: return "Too Early"
        default: return "Reserved"
        }
    }

    public var description: String {
        "\(name) (0x\(String(rawValue, radix: 16).leftPadded(to: 2)))"
    }
}
