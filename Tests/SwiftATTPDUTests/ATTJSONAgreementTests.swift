import SwiftATTPDU
import SwiftATTPDUJSON
import Testing
import TestSupport

/// The `ATTJSON` target's JSON form of a PDU agrees with the hand-worked `fields` of every
/// golden vector, both ways: `ATTPDU.json` prints them, `ATTPDU(json:)` encodes them.
@Suite("ATTJSON agrees with the golden vectors")
struct ATTJSONAgreementTests {
    /// The fixture form of a `JSONValue`, or `nil` for kinds the fixtures never hold.
    static func fixtureForm(_ v: JSONValue) -> FixtureJSON? {
        switch v {
        case let .integer(i): return .int(i)
        case let .string(s): return .string(s)
        case let .array(a):
            let elements = a.compactMap(fixtureForm)
            return elements.count == a.count ? .array(elements) : nil
        case let .object(members):
            var o: [String: FixtureJSON] = [:]
            for m in members {
                guard let f = fixtureForm(m.value), o[m.key] == nil else { return nil }
                o[m.key] = f
            }
            return .object(o)
        case .null, .bool, .double: return nil
        }
    }

    /// The fixture form as a `JSONValue`, for `ATTPDU(json:)`.
    static func jsonValue(_ f: FixtureJSON) -> JSONValue {
        switch f {
        case .null: return .null
        case let .bool(b): return .bool(b)
        case let .int(i): return .integer(i)
        case let .double(d): return .double(d)
        case let .string(s): return .string(s)
        case let .array(a): return .array(a.map(jsonValue))
        case let .object(o): return .object(o.sorted { $0.key < $1.key }.map { JSONMember($0.key, jsonValue($0.value)) })
        }
    }

    @Test("ATTPDU.json prints the vector's fields", arguments: GoldenVector.all)
    func printsTheFields(_ v: GoldenVector) throws {
        let pdu = try ATTPDU(parsing: v.bytes)
        let printed = try #require(Self.fixtureForm(pdu.json))
        #expect(printed.withoutInformationalNames == FixtureJSON.object(v.fields).withoutInformationalNames)
    }

    @Test("ATTPDU(json:) of the vector's fields encodes to its bytes", arguments: GoldenVector.all)
    func readsTheFields(_ v: GoldenVector) throws {
        let pdu = try ATTPDU(json: Self.jsonValue(.object(v.fields)))
        #expect(pdu.encoded() == v.bytes)
    }
}
