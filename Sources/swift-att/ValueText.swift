import SwiftATTPDU
import SwiftATTCore

/// How one field reads in the human form: handles as btmon prints them (`0x000d`), UUIDs
/// with their assigned names, values as hex with their ASCII when all of it is printable.
enum ValueText {
    /// Bytes per line of hex before a value wraps.
    static let bytesPerLine = 32

    static func handleRange(_ start: UInt16, _ end: UInt16) -> String { "\(Hex.handle(start))-\(Hex.handle(end))" }

    static func byte(_ b: UInt8) -> String { "0x" + hex(b, digits: 2) }

    /// `0x2803 Characteristic`, `0x0000180D`, or the 128-bit form with its name when known.
    static func uuid(_ uuid: BluetoothUUID) -> String {
        let text = uuid.width == .bits128 ? uuid.description : "0x\(uuid)"
        guard let name = uuid.assignedName else { return text }
        return "\(text) \(name)"
    }

    /// `0x0a Read Request`, or `0x3f (unknown opcode)`.
    static func opcode(_ op: ATTOpcode) -> String {
        "\(byte(op.rawValue)) \(op.name ?? "(unknown opcode)")"
    }

    /// `0x0a Attribute Not Found`, `0x80 Application Error`: a code the spec names only
    /// by its range is not numbered twice.
    static func errorCode(_ code: ATTErrorCode) -> String {
        let number = byte(code.rawValue)
        guard isNamedByNumber(code) else { return "\(number) \(code.name)" }
        return "\(number) \(code.name.dropLast(number.count + 1))"
    }

    /// `Attribute Not Found (0x0a)`, as `ATTErrorCode` describes itself; but
    /// `Application Error 0x80`, whose name already holds its number.
    static func errorName(_ code: ATTErrorCode) -> String {
        isNamedByNumber(code) ? code.name : code.description
    }

    /// Whether the code's name is its range's with the number after it (`Application
    /// Error 0x80`, `Reserved 0x14`) rather than one of its own.
    private static func isNamedByNumber(_ code: ATTErrorCode) -> Bool {
        code.name.lowercased().hasSuffix(" " + byte(code.rawValue))
    }

    /// Hex, wrapped every `bytesPerLine` bytes; then the text in quotes if every byte is
    /// printable ASCII (on the same line when the hex fits one line), and the length when
    /// the value wraps.
    static func bytes(_ value: ArraySlice<UInt8>) -> [String] {
        guard !value.isEmpty else { return ["(empty)"] }
        var lines: [String] = []
        var start = value.startIndex
        while start < value.endIndex {
            let end = min(start + bytesPerLine, value.endIndex)
            lines.append(Hex.encode(value[start..<end]))
            start = end
        }
        let text = printable(value)
        if lines.count == 1 {
            if let text { lines[0] += "  \(text)" }
        } else {
            if let text { lines.append(text) }
            lines.append("(\(value.count) bytes)")
        }
        return lines
    }

    /// `"swift-att"` when every byte is printable ASCII; quotes and backslashes escaped.
    static func printable(_ value: ArraySlice<UInt8>) -> String? {
        guard value.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { return nil }
        var s = "\""
        for b in value {
            if b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") { s += "\\" }
            s.unicodeScalars.append(Unicode.Scalar(b))
        }
        return s + "\""
    }

    /// A 2- or 16-byte value read as a UUID (a service declaration's value).
    static func uuidValue(_ value: ArraySlice<UInt8>) -> BluetoothUUID? {
        guard value.count == 2 || value.count == 16 else { return nil }
        return BluetoothUUID(littleEndianBytes: value)
    }

    /// What a 5- or 19-byte Read By Type value means if it is a characteristic
    /// declaration (Core 5.4 Vol 3 Part G §3.3.1): properties, value handle, UUID.
    static func characteristicDeclaration(_ value: ArraySlice<UInt8>) -> String? {
        guard value.count == 5 || value.count == 19,
              let uuid = BluetoothUUID(littleEndianBytes: value.bytes(from: 3)) else { return nil }
        let properties = value.byte(at: 0)
        return "characteristic: properties \(byte(properties)) (\(propertyNames(properties))), "
            + "value handle \(Hex.handle(value.littleEndianUInt16(at: 1))), UUID \(self.uuid(uuid))"
    }

    /// The Characteristic Properties bits (Core 5.4 Vol 3 Part G §3.3.1.1), in order.
    static func propertyNames(_ bits: UInt8) -> String {
        let names = ["Broadcast", "Read", "Write Without Response", "Write", "Notify", "Indicate",
                     "Authenticated Signed Writes", "Extended Properties"]
        let set = names.indices.filter { bits & (1 << $0) != 0 }.map { names[$0] }
        return set.isEmpty ? "none" : set.joined(separator: ", ")
    }

    private static func hex(_ v: some BinaryInteger, digits: Int) -> String {
        let s = String(v, radix: 16)
        return String(repeating: "0", count: max(0, digits - s.count)) + s
    }
}
