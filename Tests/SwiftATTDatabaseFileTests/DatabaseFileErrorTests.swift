import SwiftATTDatabaseFile
import Testing

/// Malformed database files: each is refused with the JSON path of the fault and what is
/// wrong there, never a trap and never a half-built database.
struct DatabaseFileErrorTests {
    /// A characteristic inside one service, for the cases about characteristics.
    static func characteristic(_ body: String) -> String {
        #"{"services":[{"uuid":"180F","characteristics":[\#(body)]}]}"#
    }

    static func descriptor(_ body: String) -> String {
        characteristic(#"{"uuid":"2A19","properties":["read"],"descriptors":[\#(body)]}"#)
    }

    static let cases: [(String, String)] = [
        // The document
        ("[]", "expected an object, found an array"),
        ("{}", "services: missing"),
        (#"{"services":[]}"#, "services: no services: give at least one"),
        (#"{"services":{}}"#, "services: expected an array, found an object"),
        (#"{"servces":[]}"#, "servces: unknown key (expected name, appearance, advertise, services)"),
        (#"{"name":"","services":[{"uuid":"180F"}]}"#, "name: must be 1 to 248 octets of UTF-8 (the GAP Device Name's limit)"),
        (#"{"name":7,"services":[{"uuid":"180F"}]}"#, "name: expected a string, found an integer"),
        (#"{"appearance":"abc","services":[{"uuid":"180F"}]}"#, "appearance: not a 16-bit number: 'abc' (write 4 hex digits or an integer)"),
        (#"{"appearance":70000,"services":[{"uuid":"180F"}]}"#, "appearance: 70000 is out of range 0...65535"),
        (#"{"advertise":["18"],"services":[{"uuid":"180F"}]}"#,
         "advertise[0]: not a UUID: '18' (write 180D, 0000180D or the 128-bit 8-4-4-4-12 form)"),
        // Services
        (#"{"services":[{"uuid":"180F"},{"uuid":"xyz"}]}"#,
         "services[1].uuid: not a UUID: 'xyz' (write 180D, 0000180D or the 128-bit 8-4-4-4-12 form)"),
        (#"{"services":[{"name":"x"}]}"#, "services[0].uuid: missing"),
        (#"{"services":[{"uuid":180}]}"#, "services[0].uuid: expected a UUID string, found an integer"),
        (#"{"services":[{"uuid":"180F","primary":"yes"}]}"#, "services[0].primary: expected true or false, found a string"),
        (#"{"services":[{"uuid":"180F","id":"a"},{"uuid":"180A","id":"a"}]}"#, "services[1].id: 'a' is already the id of services[0]"),
        (#"{"services":[{"uuid":"180F","includes":["b"]}]}"#, "services[0].includes[0]: no service has the id 'b'"),
        (#"{"services":[{"uuid":"180F","id":"a","includes":["a"]}]}"#, "services[0].includes[0]: a service cannot include itself"),
        (#"{"services":[{"uuid":"180F","includes":[1]}]}"#, "services[0].includes[0]: expected the id of a service, found an integer"),
        (#"{"services":[{"uuid":"180F","id":"a","includes":["b"]},{"uuid":"180A","id":"b","includes":["a"]}]}"#,
         "services[1].includes[0]: include cycle: services[0] includes itself through this"),
        // Characteristics
        (characteristic(#"{"uuid":"2A19"}"#), "services[0].characteristics[0].properties: missing"),
        (characteristic(#"{"uuid":"2A19","properties":["read","shout"]}"#),
         "services[0].characteristics[0].properties[1]: unknown property 'shout' (expected broadcast, read, write-without-response, "
            + "write, notify, indicate, authenticated-signed-writes, reliable-write, writable-auxiliaries)"),
        (characteristic(#"{"uuid":"2A19","properties":[1]}"#),
         "services[0].characteristics[0].properties[0]: expected a property name, found an integer"),
        (characteristic(#"{"uuid":"2A1","properties":["read"]}"#),
         "services[0].characteristics[0].uuid: not a UUID: '2A1' (write 180D, 0000180D or the 128-bit 8-4-4-4-12 form)"),
        (characteristic(#"{"uuid":"2A19","properties":["read"],"value":"64"}"#),
         "services[0].characteristics[0].value: unknown key (expected uuid, name, properties, permissions, hex, text, maxLength, "
            + "fixedLength, descriptors)"),
        (characteristic(#"{"uuid":"2A19","properties":["read"],"hex":"6z"}"#),
         "services[0].characteristics[0].hex: invalid hex character 'z' at position 1"),
        (characteristic(#"{"uuid":"2A19","properties":["read"],"hex":"641"}"#),
         "services[0].characteristics[0].hex: odd number of hex digits (3): each byte needs two"),
        (characteristic(#"{"uuid":"2A19","properties":["read"],"hex":"00","text":"a"}"#),
         #"services[0].characteristics[0].text: give "hex" or "text", not both"#),
        (characteristic(#"{"uuid":"2A19","properties":["read"],"text":"abcdef","maxLength":4}"#),
         "services[0].characteristics[0].text: 6 octets, longer than the maximum length 4"),
        (characteristic(#"{"uuid":"2A19","properties":["read"],"maxLength":513}"#),
         "services[0].characteristics[0].maxLength: 513 is out of range 0...512"),
        (characteristic(#"{"uuid":"2A19","properties":["read"],"maxLength":1.5}"#),
         "services[0].characteristics[0].maxLength: expected an integer, found a number"),
        (characteristic(#"{"uuid":"2A19","properties":["read"],"hex":"00","maxLength":4,"fixedLength":true}"#),
         "services[0].characteristics[0].fixedLength: give maxLength or fixedLength, not both"),
        (characteristic(#"{"uuid":"2A19","properties":["read"],"text":"\#(String(repeating: "x", count: 513))"}"#),
         "services[0].characteristics[0].text: 513 octets, longer than the maximum length 512"),
        (characteristic(#"{"uuid":"2A19","properties":["read"],"permissions":{"read":"secret"}}"#),
         "services[0].characteristics[0].permissions.read: unknown permission 'secret' (none, open, encrypted, authenticated, secure-connections, authorized)"),
        (characteristic(#"{"uuid":"2A19","properties":["read"],"permissions":{"read":["encrypted",3]}}"#),
         "services[0].characteristics[0].permissions.read[1]: expected a requirement, found an integer"),
        (characteristic(#"{"uuid":"2A19","properties":["read"],"permissions":{"notify":"open"}}"#),
         "services[0].characteristics[0].permissions.notify: unknown key (expected read, write)"),
        (characteristic(#"{"uuid":"2A19","properties":["read"],"permissions":{"write":true}}"#),
         #"services[0].characteristics[0].permissions.write: expected "none", "open" or requirements, found a boolean"#),
        // Descriptors
        (descriptor("{}"),
         #"services[0].characteristics[0].descriptors[0].type: missing: give "type" (user-description, presentation-format) or "uuid""#),
        (descriptor(#"{"type":"user-description"}"#), "services[0].characteristics[0].descriptors[0].text: missing"),
        (descriptor(#"{"type":"user-description","text":"a","hex":"00"}"#),
         "services[0].characteristics[0].descriptors[0].hex: not a key of a user description"),
        (descriptor(#"{"type":"user-description","text":"a"},{"type":"user-description","text":"b"}"#),
         "services[0].characteristics[0].descriptors[1]: a characteristic has at most one user description"),
        (descriptor(#"{"type":"presentation-format"}"#), "services[0].characteristics[0].descriptors[0].format: missing"),
        (descriptor(#"{"type":"presentation-format","format":"uint7"}"#),
         "services[0].characteristics[0].descriptors[0].format: unknown format 'uint7' (uint8, uint16, sint16, float32, utf8s, … or a number)"),
        (descriptor(#"{"type":"presentation-format","format":4,"exponent":200}"#),
         "services[0].characteristics[0].descriptors[0].exponent: 200 is out of range -128...127"),
        (descriptor(#"{"type":"presentation-format","format":4,"unit":"percent"}"#),
         "services[0].characteristics[0].descriptors[0].unit: not a 16-bit number: 'percent' (write 4 hex digits or an integer)"),
        (descriptor(#"{"type":"presentation-format","format":4,"text":"x"}"#),
         "services[0].characteristics[0].descriptors[0].text: not a key of a presentation format"),
        (descriptor(#"{"type":"cccd"}"#),
         #"services[0].characteristics[0].descriptors[0].type: unknown descriptor type 'cccd' (user-description, presentation-format; other descriptors by "uuid")"#),
        (descriptor(#"{"type":"user-description","uuid":"2901","text":"a"}"#),
         #"services[0].characteristics[0].descriptors[0].uuid: give "type" or "uuid", not both"#),
        (descriptor(#"{"uuid":"2902"}"#),
         #"services[0].characteristics[0].descriptors[0].uuid: 2902 is defined by GATT: write "type": "user-description" or "#
            + #""presentation-format"; the server adds Extended Properties and the configuration descriptors itself"#),
        (descriptor(#"{"uuid":"2906","format":4}"#),
         "services[0].characteristics[0].descriptors[0].format: not a key of a descriptor given by uuid"),
        (descriptor(#"{"uuid":"2906","hex":"0"}"#),
         "services[0].characteristics[0].descriptors[0].hex: odd number of hex digits (1): each byte needs two"),
        (descriptor("7"), "services[0].characteristics[0].descriptors[0]: expected an object, found an integer"),
    ]

    @Test(arguments: cases)
    func refusedWithItsPath(json: String, message: String) {
        #expect(throws: DatabaseFileError.self) { try DatabaseFile.parse(json) }
        do {
            _ = try DatabaseFile.parse(json)
        } catch {
            #expect(error.description == message)
        }
    }

    /// Not JSON at all: where, by line and column.
    @Test(arguments: [
        ("", "not JSON: unexpected end of input, expected a value at line 1, column 1"),
        ("{\n  \"services\": [\n    {\"uuid\": \"180F\",}\n  ]\n}", "not JSON: unexpected character '}', expected a string key at line 3, column 21"),
        ("{\"services\": [] /* no */}", "not JSON: unexpected character '/', expected ',' or '}' after an object member at line 1, column 17"),
        ("{\"a\":1,\"a\":2}", "not JSON: duplicate key \"a\" at line 1, column 8"),
    ])
    func notJSON(text: String, message: String) {
        do {
            _ = try DatabaseFile.parse(text)
            Issue.record("parsed: \(text)")
        } catch {
            #expect(error.path.isEmpty)
            #expect(error.description == message)
        }
    }

    /// What the database itself refuses surfaces with the file's words too.
    @Test func handlesExhausted() throws {
        let many = (0..<33000).map { _ in #"{"uuid":"2A19","properties":["read"]}"# }.joined(separator: ",")
        let file = try DatabaseFile.parse(Self.characteristic(many))
        #expect(throws: DatabaseFileError("service 180F does not fit below handle 0xFFFF", at: "services")) { try file.database() }
    }
}
