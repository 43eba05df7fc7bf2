import SwiftATTPDU

/// Why a JSON value is not the JSON form of an ATT PDU, and where: `path` names the key
/// (`attributeDataList[2].value`), empty for the document itself.
public struct ATTJSONError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong with the value at `path`.
    public enum Reason: Hashable, Sendable {
        /// A field the PDU needs is absent.
        case missingKey
        /// A key the PDU does not have (and not an informational `…Name` key), with the
        /// keys the object may have.
        case unknownKey(expected: [String])
        /// The value has the wrong JSON type.
        case wrongType(expected: String, found: String)
        /// A number outside what the field can hold on the wire.
        case outOfRange(Int, allowed: ClosedRange<Int>)
        /// A byte string that is not an even number of hex digits.
        case invalidHex(String)
        /// Text that is not a 16-, 32- or 128-bit UUID.
        case invalidUUID(String)
        /// A UUID whose width this field cannot carry on the wire.
        case uuidWidthNotAllowed(BluetoothUUID, allowed: String)
        /// An opcode Core 5.4 does not define.
        case unknownOpcode(UInt8)
        /// Fields that contradict each other, with a sentence saying how.
        case inconsistent(String)
        /// The fields make bytes the ATT decoder rejects: the JSON cannot produce an invalid PDU.
        case invalidPDU(ATTDecodingError)
    }

    /// The key path of the value at fault (`attributeDataList[2].value`); empty for the
    /// document itself.
    public let path: String
    /// What is wrong there.
    public let reason: Reason

    /// An error for `reason` at key path `path`.
    public init(_ reason: Reason, at path: String) {
        self.reason = reason
        self.path = path
    }

    public var description: String {
        path.isEmpty ? what : "\(path): \(what)"
    }

    private var what: String {
        switch reason {
        case .missingKey:
            return "missing field"
        case let .unknownKey(expected):
            return "unknown key" + (expected.isEmpty ? "; this PDU has no fields" : " (expected \(expected.joined(separator: ", ")))")
        case let .wrongType(expected, found):
            return "expected \(expected), found \(found)"
        case let .outOfRange(value, allowed):
            return "\(value) is out of range \(allowed.lowerBound)...\(allowed.upperBound)"
        case let .invalidHex(why):
            return "expected a hex string: \(why)"
        case let .invalidUUID(text):
            return "\"\(text)\" is not a UUID (expected e.g. \"2803\", \"0000180D\" or \"6E400001-B5A3-F393-E0A9-E50E24DCCA9E\")"
        case let .uuidWidthNotAllowed(uuid, allowed):
            return "\(uuid) is a \(uuid.width.byteCount * 8)-bit UUID; this field carries \(allowed)"
        case let .unknownOpcode(op):
            return "\(op) (0x\(op < 0x10 ? "0" : "")\(String(op, radix: 16))) is not an opcode Core 5.4 defines"
        case let .inconsistent(why):
            return why
        case let .invalidPDU(error):
            return "not a valid PDU: \(error)"
        }
    }
}
