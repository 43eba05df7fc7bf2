import Testing
import SwiftATTJSON

@Suite("JSONValue.serialized(indent:)")
struct JSONValueIndentationTests {
    static let nested: JSONValue = .object([
        JSONMember("version", 1),
        JSONMember("list", [.object([JSONMember("k", "v\n")]), [], .object([]), -2.5, nil]),
        JSONMember("empty", .object([])),
    ])

    @Test func indentsEachLevel() {
        #expect(Self.nested.serialized(indent: 2) == """
            {
              "version": 1,
              "list": [
                {
                  "k": "v\\n"
                },
                [],
                {},
                -2.5,
                null
              ],
              "empty": {}
            }
            """)
    }

    @Test("scalars and empty containers are written as the compact form writes them", arguments: [
        JSONValue.null, .bool(false), .integer(7), .string("a\"b"), .array([]), .object([]),
    ])
    func scalars(_ value: JSONValue) {
        #expect(value.serialized(indent: 4) == value.serialized())
    }

    @Test func zeroIndentKeepsTheLines() {
        #expect(JSONValue.array([1, 2]).serialized(indent: 0) == "[\n1,\n2\n]")
    }

    @Test("parse(serialized(indent:)) gives the value back", arguments: [2, 4])
    func roundTrips(_ indent: Int) throws {
        #expect(try JSONValue.parse(Self.nested.serialized(indent: indent)) == Self.nested)
    }
}
