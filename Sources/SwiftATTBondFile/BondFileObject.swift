import SwiftATTCore
import SwiftATTJSON

/// One JSON object of a bond file, read key by key with the path in every error. Keys
/// outside the allowed set are refused: a misspelt `peripheralKey` must not read as a
/// bond without one.
struct BondFileObject {
    let members: [JSONMember]
    let path: String

    init(_ value: JSONValue, at path: String, keys: [String]) throws(BondDocumentError) {
        guard case let .object(members) = value else {
            throw BondDocumentError("expected an object, found \(value.kindDescription)", at: path)
        }
        self.members = members
        self.path = path
        for member in members where !keys.contains(member.key) {
            throw BondDocumentError("unknown key (expected \(keys.joined(separator: ", ")))", at: pathOf(member.key))
        }
    }

    func pathOf(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    func optional(_ key: String) -> JSONValue? { members.first { $0.key == key }?.value }

    func required(_ key: String) throws(BondDocumentError) -> JSONValue {
        guard let value = optional(key) else { throw BondDocumentError("missing", at: pathOf(key)) }
        return value
    }

    func string(_ key: String, _ expected: String) throws(BondDocumentError) -> String {
        let value = try required(key)
        guard case let .string(text) = value else {
            throw BondDocumentError("expected \(expected), found \(value.kindDescription)", at: pathOf(key))
        }
        return text
    }

    func bool(_ key: String) throws(BondDocumentError) -> Bool {
        let value = try required(key)
        guard case let .bool(flag) = value else {
            throw BondDocumentError("expected true or false, found \(value.kindDescription)", at: pathOf(key))
        }
        return flag
    }

    func integer(_ key: String, in range: ClosedRange<Int>) throws(BondDocumentError) -> Int {
        let value = try required(key)
        guard case let .integer(n) = value else {
            throw BondDocumentError("expected an integer, found \(value.kindDescription)", at: pathOf(key))
        }
        guard range.contains(n) else {
            throw BondDocumentError("\(n) is out of range \(range.lowerBound)...\(range.upperBound)", at: pathOf(key))
        }
        return n
    }

    func optionalInteger(_ key: String, in range: ClosedRange<Int>) throws(BondDocumentError) -> Int? {
        optional(key) == nil ? nil : try integer(key, in: range)
    }

    /// A UUID as `swift-att decode` prints it: `2A37`, `0000180D`, or 128 bits with dashes.
    func uuid(_ key: String) throws(BondDocumentError) -> BluetoothUUID {
        let expected = "a UUID (2A37, or 8-4-4-4-12 hex digits)"
        let text = try string(key, expected)
        guard let uuid = BluetoothUUID(text), !text.hasPrefix("0x"), !text.hasPrefix("0X") else {
            throw BondDocumentError("expected \(expected), found \(JSONValue.string(text).serialized())", at: pathOf(key))
        }
        return uuid
    }

    /// Octets as hex digits, two per octet, first octet first; at most `maximum`.
    func octets(_ key: String, maximum: Int) throws(BondDocumentError) -> [UInt8] {
        let expected = "hex digits, two per octet"
        let text = try string(key, "a string of \(expected)")
        let digits = Array(text.utf8)
        guard digits.count % 2 == 0, digits.allSatisfy({ Character(Unicode.Scalar($0)).isHexDigit }) else {
            throw BondDocumentError("expected \(expected), found \(JSONValue.string(text).serialized())", at: pathOf(key))
        }
        guard digits.count / 2 <= maximum else {
            throw BondDocumentError("\(digits.count / 2) octets, more than \(maximum)", at: pathOf(key))
        }
        return stride(from: 0, to: digits.count, by: 2).map { UInt8(String(decoding: digits[$0..<$0 + 2], as: UTF8.self), radix: 16)! }
    }

    func address(_ key: String, typeKey: String) throws(BondDocumentError) -> BluetoothAddress {
        let text = try string(key, "an address (AA:BB:CC:DD:EE:FF)")
        let kind: BluetoothAddress.Kind
        switch try string(typeKey, "\"public\" or \"random\"") {
        case "public": kind = .public
        case "random": kind = .random
        case let other: throw BondDocumentError("expected \"public\" or \"random\", found \"\(other)\"", at: pathOf(typeKey))
        }
        guard let address = BluetoothAddress(text, kind: kind) else {
            throw BondDocumentError("expected an address (AA:BB:CC:DD:EE:FF), found \"\(text)\"", at: pathOf(key))
        }
        return address
    }

    /// A 128-bit key: exactly 32 hex digits, most significant first.
    func key128(_ key: String) throws(BondDocumentError) -> UInt128 {
        let digits = try self.digits(key, count: 32)
        return UInt128(digits, radix: 16)!
    }

    func optionalKey128(_ key: String) throws(BondDocumentError) -> UInt128? {
        optional(key) == nil ? nil : try key128(key)
    }

    /// A 64-bit number as exactly 16 hex digits, most significant first.
    func hex64(_ key: String) throws(BondDocumentError) -> UInt64 {
        let digits = try self.digits(key, count: 16)
        return UInt64(digits, radix: 16)!
    }

    /// Exactly `count` hex digits. The message says what is wrong with the text without
    /// quoting it: it may be most of a key.
    private func digits(_ key: String, count: Int) throws(BondDocumentError) -> String {
        let expected = "\(count) hex digits"
        let text = try string(key, "a string of \(expected)")
        if let bad = text.unicodeScalars.firstIndex(where: { !($0.isASCII && Character($0).isHexDigit) }) {
            let position = text.unicodeScalars.distance(from: text.unicodeScalars.startIndex, to: bad)
            throw BondDocumentError("expected \(expected), found a character that is not one at position \(position)",
                                    at: pathOf(key))
        }
        guard text.utf8.count == count else {
            throw BondDocumentError("expected \(expected), found \(text.utf8.count)", at: pathOf(key))
        }
        return text
    }

    func object(_ key: String, keys: [String]) throws(BondDocumentError) -> BondFileObject? {
        guard let value = optional(key) else { return nil }
        return try BondFileObject(value, at: pathOf(key), keys: keys)
    }

    /// The elements of an array, each with its path (`key[3]`).
    func array(_ key: String) throws(BondDocumentError) -> [(value: JSONValue, path: String)] {
        let value = try required(key)
        guard case let .array(elements) = value else {
            throw BondDocumentError("expected an array, found \(value.kindDescription)", at: pathOf(key))
        }
        return elements.enumerated().map { ($0.element, "\(pathOf(key))[\($0.offset)]") }
    }
}
