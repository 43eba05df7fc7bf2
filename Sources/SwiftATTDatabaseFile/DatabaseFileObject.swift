import SwiftATTJSON
import SwiftATTCore

/// One JSON object of a database file, read key by key with the key path in every error.
/// Keys outside the allowed set are refused, so a misspelt key is an error rather than a
/// setting silently ignored.
struct DatabaseFileObject {
    let members: [JSONMember]
    let path: String

    init(_ value: JSONValue, at path: String, keys: [String]) throws(DatabaseFileError) {
        guard case let .object(members) = value else {
            throw DatabaseFileError("expected an object, found \(value.kindDescription)", at: path)
        }
        self.members = members
        self.path = path
        for member in members where !keys.contains(member.key) {
            throw DatabaseFileError("unknown key (expected \(keys.joined(separator: ", ")))", at: pathOf(member.key))
        }
    }

    func pathOf(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    func has(_ key: String) -> Bool { members.contains { $0.key == key } }

    func optional(_ key: String) -> JSONValue? { members.first { $0.key == key }?.value }

    func required(_ key: String) throws(DatabaseFileError) -> JSONValue {
        guard let value = optional(key) else { throw DatabaseFileError("missing", at: pathOf(key)) }
        return value
    }

    func string(_ key: String) throws(DatabaseFileError) -> String? {
        guard let value = optional(key) else { return nil }
        guard case let .string(text) = value else {
            throw DatabaseFileError("expected a string, found \(value.kindDescription)", at: pathOf(key))
        }
        return text
    }

    func bool(_ key: String) throws(DatabaseFileError) -> Bool? {
        guard let value = optional(key) else { return nil }
        guard case let .bool(flag) = value else {
            throw DatabaseFileError("expected true or false, found \(value.kindDescription)", at: pathOf(key))
        }
        return flag
    }

    func integer(_ key: String, in range: ClosedRange<Int>) throws(DatabaseFileError) -> Int? {
        guard let value = optional(key) else { return nil }
        return try Self.integer(value, in: range, at: pathOf(key))
    }

    static func integer(_ value: JSONValue, in range: ClosedRange<Int>, at path: String) throws(DatabaseFileError) -> Int {
        guard case let .integer(n) = value else {
            throw DatabaseFileError("expected an integer, found \(value.kindDescription)", at: path)
        }
        guard range.contains(n) else {
            throw DatabaseFileError("\(n) is out of range \(range.lowerBound)...\(range.upperBound)", at: path)
        }
        return n
    }

    /// A 16-bit number written as an integer or as four hex digits (`"27AD"`, `"0x27AD"`),
    /// the way assigned numbers are usually quoted.
    func uint16(_ key: String) throws(DatabaseFileError) -> UInt16? {
        guard let value = optional(key) else { return nil }
        if case let .string(text) = value {
            guard let uuid = BluetoothUUID(text), let short = uuid.uuid16, uuid.width == .bits16 else {
                throw DatabaseFileError("not a 16-bit number: '\(text)' (write 4 hex digits or an integer)", at: pathOf(key))
            }
            return short
        }
        return UInt16(try Self.integer(value, in: 0...0xFFFF, at: pathOf(key)))
    }

    func uuid(_ key: String) throws(DatabaseFileError) -> BluetoothUUID {
        let value = try required(key)
        return try Self.uuid(value, at: pathOf(key))
    }

    static func uuid(_ value: JSONValue, at path: String) throws(DatabaseFileError) -> BluetoothUUID {
        guard case let .string(text) = value else {
            throw DatabaseFileError("expected a UUID string, found \(value.kindDescription)", at: path)
        }
        guard let uuid = BluetoothUUID(text) else {
            throw DatabaseFileError("not a UUID: '\(text)' (write 180D, 0000180D or the 128-bit 8-4-4-4-12 form)", at: path)
        }
        return uuid
    }

    /// The elements of an array, each with its path (`key[3]`).
    func array(_ key: String) throws(DatabaseFileError) -> [(value: JSONValue, path: String)]? {
        guard let value = optional(key) else { return nil }
        guard case let .array(elements) = value else {
            throw DatabaseFileError("expected an array, found \(value.kindDescription)", at: pathOf(key))
        }
        return elements.enumerated().map { ($0.element, "\(pathOf(key))[\($0.offset)]") }
    }
}
