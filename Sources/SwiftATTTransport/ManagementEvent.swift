import SwiftATTCore

/// An event read from the kernel's management channel: `code(2) index(2) length(2)
/// parameters`, one per `read`. BlueZ doc/mgmt-api.txt, "Events".
///
/// Only the events the adapter wait and `swift-att adapters` act on are decoded; the
/// rest are kept as `.other` so a reader can skip them.
public enum ManagementEvent: Hashable, Sendable {
    /// 0x0001: a command finished; its return parameters follow the status.
    case commandComplete(ManagementOpcode, index: UInt16, status: ManagementStatus, returnParameters: ArraySlice<UInt8>)
    /// 0x0002: a command failed before it produced return parameters.
    case commandStatus(ManagementOpcode, index: UInt16, status: ManagementStatus)
    /// 0x0004: the kernel finished setting an adapter up (or a program released its user channel).
    case indexAdded(UInt16)
    /// 0x0005: an adapter went away, or a program took it on the user channel.
    case indexRemoved(UInt16)
    /// Any other event, undecoded.
    case other(code: UInt16, index: UInt16, parameters: ArraySlice<UInt8>)

    /// Decodes one event packet; the length field must match the bytes present.
    public init(_ bytes: ArraySlice<UInt8>) throws(ManagementDecodingError) {
        guard bytes.count >= 6 else { throw .truncated("management event header", need: 6, have: bytes.count) }
        let code = bytes.littleEndianUInt16(at: 0)
        let index = bytes.littleEndianUInt16(at: 2)
        let length = Int(bytes.littleEndianUInt16(at: 4))
        guard length == bytes.count - 6 else {
            throw .lengthMismatch("management event 0x\(String(code, radix: 16))", declared: length, have: bytes.count - 6)
        }
        let p = bytes.bytes(from: 6)
        switch code {
        case 0x0001:
            guard p.count >= 3 else { throw .truncated("Command Complete event", need: 3, have: p.count) }
            self = .commandComplete(ManagementOpcode(rawValue: p.littleEndianUInt16(at: 0)), index: index,
                                    status: ManagementStatus(rawValue: p.byte(at: 2)), returnParameters: p.bytes(from: 3))
        case 0x0002:
            guard p.count == 3 else { throw .lengthMismatch("Command Status event", declared: 3, have: p.count) }
            self = .commandStatus(ManagementOpcode(rawValue: p.littleEndianUInt16(at: 0)), index: index,
                                  status: ManagementStatus(rawValue: p.byte(at: 2)))
        case 0x0004: self = .indexAdded(index)
        case 0x0005: self = .indexRemoved(index)
        default: self = .other(code: code, index: index, parameters: p)
        }
    }
}

/// A management command's status (doc/mgmt-api.txt, "Error Codes").
public struct ManagementStatus: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// The command succeeded.
    public static let success = ManagementStatus(rawValue: 0x00)
    /// No adapter has the command's index (it went away, or never was).
    public static let invalidIndex = ManagementStatus(rawValue: 0x11)
    /// The command needs a privilege the process lacks.
    public static let permissionDenied = ManagementStatus(rawValue: 0x14)

    static let names: [UInt8: String] = [
        0x00: "Success", 0x01: "Unknown Command", 0x02: "Not Connected", 0x03: "Failed", 0x04: "Connect Failed",
        0x05: "Authentication Failed", 0x06: "Not Paired", 0x07: "No Resources", 0x08: "Timeout",
        0x09: "Already Connected", 0x0A: "Busy", 0x0B: "Rejected", 0x0C: "Not Supported",
        0x0D: "Invalid Parameters", 0x0E: "Disconnected", 0x0F: "Not Powered", 0x10: "Cancelled",
        0x11: "Invalid Index", 0x12: "RFKilled", 0x13: "Already Paired", 0x14: "Permission Denied",
    ]

    public var description: String {
        "\(Self.names[rawValue] ?? "Unknown Status") (0x\(rawValue < 0x10 ? "0" : "")\(String(rawValue, radix: 16)))"
    }
}

/// Why bytes from the management channel are not a valid event or reply.
public enum ManagementDecodingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The named packet is shorter than its fixed fields.
    case truncated(String, need: Int, have: Int)
    /// The named packet's length field disagrees with the bytes that came.
    case lengthMismatch(String, declared: Int, have: Int)

    public var description: String {
        switch self {
        case let .truncated(what, need, have): return "\(what) truncated: needs \(need) bytes, has \(have)"
        case let .lengthMismatch(what, declared, have): return "\(what): length says \(declared) bytes, \(have) present"
        }
    }
}
