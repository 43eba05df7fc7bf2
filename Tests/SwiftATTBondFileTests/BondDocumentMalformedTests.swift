import SwiftATTBondFile
import SwiftATTCore
import SwiftATTGATT
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
             "unknown key (expected peer, peerType, centralKey, peripheralKey, irk, peerCSRK, localCSRK, authenticated, secureConnections, keySize, peerSignCounter, localSignCounter, gatt)"),
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

    static let gatt = first + ".bonds[0].gatt"

    /// Edits of the golden file with GATT state and counters (bonds-v1-gatt.json).
    static let gattEdits: [Edit] = [
        Edit(#""81ca5a2ff73bd14b641b08974afb73ba""#, #""81ca""#, gatt + ".databaseHash", "expected 32 hex digits, found 4"),
        Edit(#""changeAware": false"#, #""changeAware": 0"#, gatt + ".changeAware", "expected true or false, found an integer"),
        Edit(#""changeAware": false"#, #""changeAware": false, "aware": true"#, gatt + ".aware",
             "unknown key (expected databaseHash, changeAware, clientSupportedFeatures, serviceChangedOwed, subscriptions)"),
        Edit(#""clientSupportedFeatures": "01""#, #""clientSupportedFeatures": "1""#, gatt + ".clientSupportedFeatures",
             #"expected hex digits, two per octet, found "1""#),
        Edit(#""clientSupportedFeatures": "01""#, #""clientSupportedFeatures": "0g""#, gatt + ".clientSupportedFeatures",
             #"expected hex digits, two per octet, found "0g""#),
        Edit(#""clientSupportedFeatures": "01""#, #""clientSupportedFeatures": "0x01""#, gatt + ".clientSupportedFeatures",
             #"expected hex digits, two per octet, found "0x01""#),
        Edit(#""clientSupportedFeatures": "01""#, #""clientSupportedFeatures": "000000000000000000""#,
             gatt + ".clientSupportedFeatures", "9 octets, more than 8"),
        Edit(#""clientSupportedFeatures": "01""#, #""clientSupportedFeatures": 1"#, gatt + ".clientSupportedFeatures",
             "expected a string of hex digits, two per octet, found an integer"),
        Edit(#""startingHandle": 14"#, #""startingHandle": 0"#, gatt + ".serviceChangedOwed.startingHandle",
             "0 is out of range 1...65535"),
        Edit(#""endingHandle": 21"#, #""endingHandle": 13"#, gatt + ".serviceChangedOwed.endingHandle",
             "13 is below startingHandle 14"),
        Edit(#""endingHandle": 21"#, #""endingHandle": 21, "end": 1"#, gatt + ".serviceChangedOwed.end",
             "unknown key (expected startingHandle, endingHandle)"),
        Edit(#""startingHandle": 14,"#, "", gatt + ".serviceChangedOwed.startingHandle", "missing"),
        Edit(#""valueHandle": 16"#, #""valueHandle": 8"#, gatt + ".subscriptions[1].valueHandle",
             "a second subscription at value handle 8 (the first is \(gatt).subscriptions[0])"),
        Edit(#""valueHandle": 16"#, #""valueHandle": 65536"#, gatt + ".subscriptions[1].valueHandle",
             "65536 is out of range 1...65535"),
        Edit(#""valueHandle": 16"#, #""valueHandle": "0x0010""#, gatt + ".subscriptions[1].valueHandle",
             "expected an integer, found a string"),
        Edit(#""uuid": "2A37""#, #""uuid": "2A3""#, gatt + ".subscriptions[1].uuid",
             #"expected a UUID (2A37, or 8-4-4-4-12 hex digits), found "2A3""#),
        Edit(#""uuid": "2A37""#, #""uuid": "0x2A37""#, gatt + ".subscriptions[1].uuid",
             #"expected a UUID (2A37, or 8-4-4-4-12 hex digits), found "0x2A37""#),
        Edit(#""uuid": "2A37","#, #""uuid": "2A37", "handle": 16,"#, gatt + ".subscriptions[1].handle",
             "unknown key (expected valueHandle, uuid, notification, indication)"),
        Edit(#""notification": true,\#n                "indication": false"#,
             #""notification": false,\#n                "indication": false"#, gatt + ".subscriptions[1]",
             "neither notification nor indication (a configuration of nothing is not kept)"),
        Edit(#""notification": true,"#, "", gatt + ".subscriptions[1].notification", "missing"),
        Edit(#""indication": false"#, #""indication": null"#, gatt + ".subscriptions[1].indication",
             "expected true or false, found null"),
        Edit(#""peerSignCounter": 41"#, #""peerSignCounter": -1"#, legacy + ".peerSignCounter",
             "-1 is out of range 0...4294967295"),
        Edit(#""localSignCounter": 4294967295"#, #""localSignCounter": 4294967296"#, legacy + ".localSignCounter",
             "4294967296 is out of range 0...4294967295"),
        Edit(#""localSignCounter": 4294967295"#, #""localSignCounter": "7""#, legacy + ".localSignCounter",
             "expected an integer, found a string"),
    ]

    @Test("an edit of the golden file with GATT state is refused where it was made", arguments: gattEdits)
    func refusedGATT(_ edit: Edit) throws {
        let golden = try BondDocumentGATTTests.goldenText()
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

    /// A bond of a minimal file, with `gatt` as given.
    static func bondWithGATT(_ gatt: String) -> String {
        #"{"version": 1, "identities": {"hci0": {"address": "C3:5A:10:22:8E:41", "addressType": "random", "#
            + #""irk": "000102030405060708090a0b0c0d0e0f", "bonds": [{"peer": "D1:22:33:44:55:66", "peerType": "random", "#
            + #""authenticated": false, "secureConnections": true, "keySize": 16, "gatt": \#(gatt)}]}}}"#
    }

    static let minimalGATT = #"identities["hci0"].bonds[0].gatt"#

    @Test("a gatt member that is not one", arguments: [
        ("[]", minimalGATT, "expected an object, found an array"),
        (#"{"databaseHash": "00000000000000000000000000000000", "changeAware": true, "clientSupportedFeatures": "00"}"#,
         minimalGATT + ".subscriptions", "missing"),
        (#"{"databaseHash": "00000000000000000000000000000000", "changeAware": true, "clientSupportedFeatures": "00", "subscriptions": {}}"#,
         minimalGATT + ".subscriptions", "expected an array, found an object"),
        (#"{"databaseHash": "00000000000000000000000000000000", "changeAware": true, "clientSupportedFeatures": "00", "subscriptions": [7]}"#,
         minimalGATT + ".subscriptions[0]", "expected an object, found an integer"),
        (#"{"databaseHash": "00000000000000000000000000000000", "changeAware": true, "clientSupportedFeatures": "00", "serviceChangedOwed": [1, 2], "subscriptions": []}"#,
         minimalGATT + ".serviceChangedOwed", "expected an object, found an array"),
        (#"{"changeAware": true, "clientSupportedFeatures": "00", "subscriptions": []}"#,
         minimalGATT + ".databaseHash", "missing"),
    ])
    func notAGATTMember(_ gatt: String, _ path: String, _ message: String) {
        do {
            _ = try BondDocument(parsing: Self.bondWithGATT(gatt))
            Issue.record("accepted")
        } catch {
            #expect(error.path == path)
            #expect(error.message == message)
        }
    }

    @Test func theMinimalGATTMemberIsAccepted() throws {
        let document = try BondDocument(parsing: Self.bondWithGATT(
            #"{"databaseHash": "00000000000000000000000000000000", "changeAware": true, "clientSupportedFeatures": "", "subscriptions": []}"#))
        let adapter = try #require(document.adapters.first)
        #expect(adapter.gattClients[adapter.bonds[0].peer] == GATTBondedClient(clientSupportedFeatures: [], databaseHash: 0))
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
