import SwiftATTBondFile
import SwiftATTCore
import SwiftATTHost
import SwiftATTSecurity
import Testing

/// Every way a bond file can be wrong is refused with the JSON path of the value at
/// fault and what is wrong with it, and no message quotes a key.
@Suite("BondDocument malformed input")
struct BondDocumentMalformedTests {
    /// An edit of the golden file (`replace` → `with`) and the error it must give.
    struct Edit: Sendable, CustomTestStringConvertible {
        let replace: String
        let with: String
        let path: String
        let message: String
        var testDescription: String { "\(path): \(message)" }

        init(_ replace: String, _ with: String, _ path: String, _ message: String) {
            self.replace = replace
            self.with = with
            self.path = path
            self.message = message
        }
    }

    static let first = #"identities["F0:F0:F0:F0:00:01"]"#
    static let legacy = first + ".bonds[1]"

    static let edits: [Edit] = [
        Edit(#""version": 1"#, #""version": 2"#, "version", "unsupported version 2 (this swift-att reads version 1)"),
        Edit(#""version": 1"#, #""version": "1""#, "version", "expected an integer, found a string"),
        Edit(#""version": 1,"#, "", "version", "missing"),
        Edit(#""version": 1,"#, #""version": 1, "comment": "x","#, "comment",
             "unknown key (expected version, identities)"),
        Edit(#""C3:5A:10:22:8E:41""#, #""C3:5A:10:22:8E""#, first + ".address",
             #"expected an address (AA:BB:CC:DD:EE:FF), found "C3:5A:10:22:8E""#),
        Edit(#""C3:5A:10:22:8E:41""#, #""43:5A:10:22:8E:41""#, first + ".address",
             "43:5A:10:22:8E:41 is not a static random address (random, the two top bits set)"),
        Edit(#""addressType": "random",\#n      "irk": "0001"#, #""addressType": "public",\#n      "irk": "0001"#,
             first + ".addressType", "C3:5A:10:22:8E:41 is not a static random address (random, the two top bits set)"),
        Edit(#""addressType": "random",\#n      "irk": "0001"#, #""addressType": "static",\#n      "irk": "0001"#,
             first + ".addressType", #"expected "public" or "random", found "static""#),
        Edit(#""irk": "000102030405060708090a0b0c0d0e0f""#, #""irk": "000102030405060708090a0b0c0d0e""#,
             first + ".irk", "expected 32 hex digits, found 30"),
        Edit(#""irk": "000102030405060708090a0b0c0d0e0f""#, #""irk": "0x0102030405060708090a0b0c0d0e0f""#,
             first + ".irk", "expected 32 hex digits, found a character that is not one at position 1"),
        Edit(#""irk": "000102030405060708090a0b0c0d0e0f""#, #""irk": "00000000000000000000000000000000""#,
             first + ".irk", "an all-zero IRK would let anyone make addresses that resolve to this adapter"),
        Edit(#""irk": "000102030405060708090a0b0c0d0e0f""#, #""irk": 5"#,
             first + ".irk", "expected a string of 32 hex digits, found an integer"),
        Edit(#""ffeeddccbbaa99887766554433221100""#, #""ffeeddccbbaa9988776655443322110z""#,
             legacy + ".centralKey.key", "expected 32 hex digits, found a character that is not one at position 31"),
        Edit(#""ffeeddccbbaa99887766554433221100""#, #""ffeeddccbbaa99887766554433221100ff""#,
             legacy + ".centralKey.key", "expected 32 hex digits, found 34"),
        Edit(#""ediv": 48879"#, #""ediv": 65536"#, legacy + ".centralKey.ediv", "65536 is out of range 0...65535"),
        Edit(#""ediv": 48879"#, #""ediv": -1"#, legacy + ".centralKey.ediv", "-1 is out of range 0...65535"),
        Edit(#""ediv": 48879"#, #""ediv": 1.5"#, legacy + ".centralKey.ediv", "expected an integer, found a number"),
        Edit(#""rand": "fedcba9876543210""#, #""rand": "fedcba987654321""#, legacy + ".centralKey.rand",
             "expected 16 hex digits, found 15"),
        Edit(#""rand": "fedcba9876543210""#, #""rand": 1234"#, legacy + ".centralKey.rand",
             "expected a string of 16 hex digits, found an integer"),
        Edit(#""ediv": 48879,"#, "", legacy + ".centralKey.ediv", "missing"),
        Edit(#""ediv": 48879,"#, #""ediv": 48879, "value": 1,"#, legacy + ".centralKey.value",
             "unknown key (expected key, ediv, rand)"),
        Edit(#""keySize": 7"#, #""keySize": 17"#, legacy + ".keySize", "17 is out of range 7...16"),
        Edit(#""keySize": 7"#, #""keySize": 6"#, legacy + ".keySize", "6 is out of range 7...16"),
        Edit(#""authenticated": true"#, #""authenticated": "yes""#, legacy + ".authenticated",
             "expected true or false, found a string"),
        Edit(#""secureConnections": false,"#, "", legacy + ".secureConnections", "missing"),
        Edit(#""peerType": "public""#, #""peerType": "static""#, legacy + ".peerType",
             #"expected "public" or "random", found "static""#),
        Edit(#""peerCSRK""#, #""peerCsrk""#, legacy + ".peerCsrk",
             "unknown key (expected peer, peerType, centralKey, peripheralKey, irk, peerCSRK, localCSRK, authenticated, secureConnections, keySize)"),
        Edit(#""bonds": []"#, #""bonds": {}"#, #"identities["tcp:127.0.0.1:9000"].bonds"#,
             "expected an array, found an object"),
        Edit(#""bonds": []"#, #""bonds": [1]"#, #"identities["tcp:127.0.0.1:9000"].bonds[0]"#,
             "expected an object, found an integer"),
        Edit(#"0100",\#n      "bonds": []"#, #"0100""#, #"identities["tcp:127.0.0.1:9000"].bonds"#, "missing"),
        Edit(#""tcp:127.0.0.1:9000": {"#, #""": {"#, #"identities[""]"#, "an adapter's name is empty"),
    ]

    @Test("an edit of the golden file is refused where it was made", arguments: edits)
    func refused(_ edit: Edit) throws {
        let golden = try BondDocumentTests.goldenText()
        let text = golden.replacing(edit.replace, with: edit.with)
        #expect(text != golden, "the edit did not apply")
        do {
            _ = try BondDocument(parsing: text)
            Issue.record("accepted")
        } catch {
            #expect(error.path == edit.path)
            #expect(error.message == edit.message)
        }
    }

    /// Whole texts that are not bond files.
    @Test("text that is not a bond file", arguments: [
        ("", "", "not JSON: unexpected end of input, expected a value at line 1, column 1"),
        ("{\"version\": 1,\n  \"identities\": {", "", "not JSON: unexpected end of input, expected a string key at line 2, column 18"),
        ("[]", "", "expected an object, found an array"),
        (#"{"version": 1, "version": 1, "identities": {}}"#, "", #"not JSON: duplicate key "version" at line 1, column 16"#),
        (#"{"version": 1}"#, "identities", "missing"),
        (#"{"version": 1, "identities": []}"#, "identities", "expected an object, found an array"),
        // An unknown version is refused before the rest is looked at.
        (#"{"version": 2, "identities": 5}"#, "version", "unsupported version 2 (this swift-att reads version 1)"),
        (#"{"version": 1, "identities": {"hci0": null}}"#, #"identities["hci0"]"#, "expected an object, found null"),
    ])
    func notABondFile(_ text: String, _ path: String, _ message: String) {
        do {
            _ = try BondDocument(parsing: text)
            Issue.record("accepted")
        } catch {
            #expect(error.path == path)
            #expect(error.message == message)
        }
    }

    @Test func aSecondBondWithOnePeerIsRefused() throws {
        var document = BondDocumentTests.golden
        let bond = document.adapters[0].bonds[0]
        document.setBonds([bond, bond], of: document.adapters[0].name)
        do {
            _ = try BondDocument(parsing: document.serialized())
            Issue.record("accepted")
        } catch {
            #expect(error.path == Self.first + ".bonds[1].peer")
            #expect(error.message == "a second bond with D1:22:33:44:55:66 (the first is \(Self.first).bonds[0])")
        }
    }

    /// No message gives a key away, even one that is almost right.
    @Test func messagesDoNotQuoteKeys() throws {
        let golden = try BondDocumentTests.goldenText()
        for bad in ["ffeeddccbbaa9988776655443322110z", "ffeeddccbbaa998877665544332211", "ffeeddccbbaa99887766554433221100f"] {
            do {
                _ = try BondDocument(parsing: golden.replacing("ffeeddccbbaa99887766554433221100", with: bad))
                Issue.record("accepted \(bad)")
            } catch {
                #expect(!error.description.contains("ffeeddcc"))
            }
        }
    }
}
