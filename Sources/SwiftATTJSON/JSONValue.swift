/// A JSON value (RFC 8259), with object members kept in the order they were written.
///
/// Small and standard library only, so a module that reads or writes JSON stays free of
/// Foundation. Numbers without a fraction or exponent that fit an `Int` are `.integer`;
/// every other number is `.double`.
public enum JSONValue: Hashable, Sendable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number with no fraction or exponent that fits an `Int`.
    case integer(Int)
    /// Any other number.
    case double(Double)
    /// A string, its escapes decoded.
    case string(String)
    /// An array's elements, in order.
    case array([JSONValue])
    /// Members in insertion order; `parse` rejects duplicate keys.
    case object([JSONMember])

    /// The value of the first member named `key` when this is an object; `nil` otherwise.
    public subscript(key: String) -> JSONValue? {
        guard case let .object(members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// The element at `index` when this is an array and `index` is in range; `nil` otherwise.
    public subscript(index: Int) -> JSONValue? {
        guard case let .array(elements) = self, elements.indices.contains(index) else { return nil }
        return elements[index]
    }

    /// A short name for the value's type, for error messages ("a string", "an array").
    public var kindDescription: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .integer: return "an integer"
        case .double: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}

/// One `"key": value` member of a JSON object.
public struct JSONMember: Hashable, Sendable {
    /// The member's name.
    public var key: String
    /// The member's value.
    public var value: JSONValue

    /// A member named `key` holding `value`.
    public init(_ key: String, _ value: JSONValue) {
        self.key = key
        self.value = value
    }
}

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral
{
    public init(nilLiteral: ()) { self = .null }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int) { self = .integer(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    /// Keeps the literal's order.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(elements.map { JSONMember($0.0, $0.1) })
    }
}
