/// A JSON value as the fixture tables hold it, compared by meaning: objects ignore key
/// order; null, booleans, integers, other numbers and strings stay distinct (so `true`
/// is not `1`).
///
/// Written for the tests alone, independently of the package's own JSON code
/// (`SwiftATTPDUJSON`, the command line's printers), so a vector table checks that code
/// against a second reading of the fixtures' README.
public enum FixtureJSON: Hashable, Sendable, Decodable, CustomStringConvertible {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([FixtureJSON])
    case object([String: FixtureJSON])

    public init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() {
            self = .null
        } else if let b = try? c.decode(Bool.self) {
            self = .bool(b)
        } else if let i = try? c.decode(Int.self) {
            self = .int(i)
        } else if let d = try? c.decode(Double.self) {
            self = .double(d)
        } else if let s = try? c.decode(String.self) {
            self = .string(s)
        } else if let a = try? c.decode([FixtureJSON].self) {
            self = .array(a)
        } else {
            self = .object(try c.decode([String: FixtureJSON].self))
        }
    }

    public var int: Int? { if case let .int(i) = self { i } else { nil } }
    public var string: String? { if case let .string(s) = self { s } else { nil } }
    public var array: [FixtureJSON]? { if case let .array(a) = self { a } else { nil } }
    public var object: [String: FixtureJSON]? { if case let .object(o) = self { o } else { nil } }

    public var description: String {
        switch self {
        case .null: return "null"
        case let .bool(b): return String(b)
        case let .int(i): return String(i)
        case let .double(d): return String(d)
        case let .string(s): return s.debugDescription
        case let .array(a): return "[" + a.map(\.description).joined(separator: ", ") + "]"
        case let .object(o):
            return "{" + o.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ") + "}"
        }
    }
}

extension FixtureJSON: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
}
