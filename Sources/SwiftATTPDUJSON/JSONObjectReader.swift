import SwiftATTJSON
import SwiftATTPDU

/// Reads the fields of one JSON object of the ATT JSON form, naming the key path in every
/// error. Construction rejects keys outside `keys`, except informational ones.
struct JSONObjectReader {
    private let members: [JSONMember]
    let path: String

    /// `value` must be an object whose keys are in `keys` or informational: `name`, any
    /// key ending in `Name`, and `informational`. `keys: nil` accepts any key.
    init(_ value: JSONValue, at path: String, keys: [String]?, informational: [String] = []) throws(ATTJSONError) {
        guard case let .object(members) = value else {
            throw ATTJSONError(.wrongType(expected: "an object", found: value.kindDescription), at: path)
        }
        self.members = members
        self.path = path
        guard let keys else { return }
        for m in members where !keys.contains(m.key) && !informational.contains(m.key) {
            if m.key == "name" || (m.key.hasSuffix("Name") && m.key != "Name") { continue }
            throw ATTJSONError(.unknownKey(expected: keys.filter { $0 != "opcode" }), at: Self.join(path, m.key))
        }
    }

    static func join(_ path: String, _ key: String) -> String {
        path.isEmpty ? key : "\(path).\(key)"
    }

    func pathOf(_ key: String) -> String { Self.join(path, key) }

    func value(_ key: String) throws(ATTJSONError) -> JSONValue {
        guard let v = members.first(where: { $0.key == key })?.value else {
            throw ATTJSONError(.missingKey, at: pathOf(key))
        }
        return v
    }

    func integer(_ key: String, in range: ClosedRange<Int>) throws(ATTJSONError) -> Int {
        try Self.integer(try value(key), in: range, at: pathOf(key))
    }

    static func integer(_ v: JSONValue, in range: ClosedRange<Int>, at path: String) throws(ATTJSONError) -> Int {
        guard case let .integer(i) = v else {
            throw ATTJSONError(.wrongType(expected: "an integer", found: v.kindDescription), at: path)
        }
        guard range.contains(i) else { throw ATTJSONError(.outOfRange(i, allowed: range), at: path) }
        return i
    }

    func uint8(_ key: String) throws(ATTJSONError) -> UInt8 {
        UInt8(try integer(key, in: 0...0xFF))
    }

    func uint16(_ key: String) throws(ATTJSONError) -> UInt16 {
        UInt16(try integer(key, in: 0...0xFFFF))
    }

    func bytes(_ key: String) throws(ATTJSONError) -> ArraySlice<UInt8> {
        let v = try value(key)
        guard case let .string(text) = v else {
            throw ATTJSONError(.wrongType(expected: "a hex string", found: v.kindDescription), at: pathOf(key))
        }
        return try Self.hexBytes(text, at: pathOf(key))[...]
    }

    /// Hex digits only, either case, two per byte: the form's byte strings have no separators.
    static func hexBytes(_ text: String, at path: String) throws(ATTJSONError) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count / 2)
        var high: UInt8? = nil
        var position = 0
        for scalar in text.unicodeScalars {
            let digit: UInt8
            switch scalar {
            case "0"..."9": digit = UInt8(scalar.value) - 0x30
            case "a"..."f": digit = UInt8(scalar.value) - 0x61 + 10
            case "A"..."F": digit = UInt8(scalar.value) - 0x41 + 10
            default:
                throw ATTJSONError(.invalidHex("invalid character \(JSONParseError.quote(scalar)) at position \(position)"), at: path)
            }
            if let h = high {
                out.append(h << 4 | digit)
                high = nil
            } else {
                high = digit
            }
            position += 1
        }
        if high != nil {
            throw ATTJSONError(.invalidHex("odd number of hex digits (\(position)): each byte needs two"), at: path)
        }
        return out
    }

    /// A UUID string whose width is one of `widths`.
    func uuid(_ key: String, widths: Set<BluetoothUUID.Width>, allowed: String) throws(ATTJSONError) -> BluetoothUUID {
        let v = try value(key)
        guard case let .string(text) = v else {
            throw ATTJSONError(.wrongType(expected: "a UUID string", found: v.kindDescription), at: pathOf(key))
        }
        guard let uuid = BluetoothUUID(text) else { throw ATTJSONError(.invalidUUID(text), at: pathOf(key)) }
        guard widths.contains(uuid.width) else {
            throw ATTJSONError(.uuidWidthNotAllowed(uuid, allowed: allowed), at: pathOf(key))
        }
        return uuid
    }

    /// The elements of an array field, each with its own path (`key[i]`).
    func array(_ key: String) throws(ATTJSONError) -> [(value: JSONValue, path: String)] {
        let v = try value(key)
        guard case let .array(elements) = v else {
            throw ATTJSONError(.wrongType(expected: "an array", found: v.kindDescription), at: pathOf(key))
        }
        let base = pathOf(key)
        return elements.enumerated().map { ($0.element, "\(base)[\($0.offset)]") }
    }
}
