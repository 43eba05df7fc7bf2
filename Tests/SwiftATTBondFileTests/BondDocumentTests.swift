import SwiftATTBondFile
import SwiftATTCore
import SwiftATTHost
import SwiftATTJSON
import SwiftATTSecurity
import Testing
import TestSupport

/// The bond file's JSON form against the golden file (Fixtures/bonds/bonds-v1.json):
/// every field read, written back byte for byte, and round trips.
@Suite("BondDocument JSON")
struct BondDocumentTests {
    /// What Fixtures/bonds/bonds-v1.json holds, built field by field.
    static let golden = BondDocument(adapters: [
        BondDocument.Adapter(
            name: AdapterIdentifier("F0:F0:F0:F0:00:01"),
            identity: LocalIdentity(identityResolvingKey: 0x0001_0203_0405_0607_0809_0A0B_0C0D_0E0F,
                                    address: BluetoothAddress(0xC35A_1022_8E41, kind: .random)),
            bonds: [
                Bond(peer: BluetoothAddress(0xD122_3344_5566, kind: .random),
                     centralKey: LongTermKey(key: 0x4C68_3841_39F5_74D8_36BC_F34E_9DFB_01BF),
                     peripheralKey: LongTermKey(key: 0x4C68_3841_39F5_74D8_36BC_F34E_9DFB_01BF),
                     peerIdentityResolvingKey: 0xEC02_34A3_57C8_AD05_3410_10A6_0A39_7D9B,
                     authenticated: false, secureConnections: true, keySize: 16),
                Bond(peer: BluetoothAddress(0x001B_DC07_32EF, kind: .public),
                     centralKey: LongTermKey(key: 0xFFEE_DDCC_BBAA_9988_7766_5544_3322_1100, ediv: 0xBEEF,
                                             rand: 0xFEDC_BA98_7654_3210),
                     peripheralKey: LongTermKey(key: 0x0011_2233_4455_6677_8899_AABB_CCDD_EEFF, ediv: 0x1234,
                                                rand: 0x0123_4567_89AB_CDEF),
                     peerSignatureKey: 0x2B7E_1516_28AE_D2A6_ABF7_1588_09CF_4F3C,
                     localSignatureKey: 0x3C4F_CF09_8815_F7AB_A6D2_AE28_1615_7E2B,
                     authenticated: true, secureConnections: false, keySize: 7),
            ]),
        BondDocument.Adapter(
            name: AdapterIdentifier("tcp:127.0.0.1:9000"),
            identity: LocalIdentity(identityResolvingKey: 0x0F0E_0D0C_0B0A_0908_0706_0504_0302_0100,
                                    address: BluetoothAddress(0xFF00_0000_0001, kind: .random))),
    ])

    static func goldenText() throws -> String { try FixtureFiles.text("bonds/bonds-v1.json") }

    @Test func readsEveryFieldOfTheGoldenFile() throws {
        #expect(try BondDocument(parsing: Self.goldenText()) == Self.golden)
    }

    @Test func writesTheGoldenFileByteForByte() throws {
        #expect(Self.golden.serialized() == (try Self.goldenText()))
    }

    /// The IRK is written as the spec's sample data prints it: with it, the bond
    /// resolves the address Core 5.4 Vol 3 Part H Appendix D.7 builds from it
    /// (prand 0x708194, ah = 0x0dfbaa).
    @Test func keysAreInTheSpecsSampleByteOrder() throws {
        let document = try BondDocument(parsing: Self.goldenText())
        let bond = try #require(document.adapters.first?.bonds.first)
        #expect(bond.matches(BluetoothAddress(0x7081_940D_FBAA, kind: .random)))
        #expect(!bond.matches(BluetoothAddress(0x7081_940D_FBAB, kind: .random)))
    }

    @Test func roundTripsThroughText() throws {
        #expect(try BondDocument(parsing: Self.golden.serialized()) == Self.golden)
        #expect(try BondDocument(parsing: BondDocument().serialized()) == BondDocument())
    }

    @Test func anEmptyDocument() {
        #expect(BondDocument().serialized() == "{\n  \"version\": 1,\n  \"identities\": {}\n}\n")
    }

    /// A bond with nothing optional: only the required keys are written.
    @Test func absentKeysAreLeftOut() throws {
        let bare = Bond(peer: BluetoothAddress(0x0000_0000_0001), centralKey: nil, peripheralKey: nil,
                        authenticated: false, secureConnections: false, keySize: 16)
        var document = BondDocument(adapters: [Self.golden.adapters[1]])
        document.setBonds([bare], of: document.adapters[0].name)
        let json = try JSONValue.parse(document.serialized())
        let written = try #require(json["identities"]?["tcp:127.0.0.1:9000"]?["bonds"]?[0])
        guard case let .object(members) = written else { Issue.record("not an object"); return }
        #expect(members.map(\.key) == ["peer", "peerType", "authenticated", "secureConnections", "keySize"])
        #expect(try BondDocument(parsing: document.serialized()) == document)
    }

    /// Values at the edges of their ranges survive the trip: the largest keys and Rand
    /// (beyond what a JSON integer could carry), EDIV 0xFFFF, key sizes 7 and 16.
    @Test("extreme values round trip", arguments: [UInt128.max, 0, 1 << 127])
    func extremes(_ key: UInt128) throws {
        let bond = Bond(peer: BluetoothAddress(0xFFFF_FFFF_FFFF, kind: .random),
                        centralKey: LongTermKey(key: key, ediv: .max, rand: .max),
                        peripheralKey: LongTermKey(key: key, ediv: 0, rand: 0), peerIdentityResolvingKey: key,
                        peerSignatureKey: key, localSignatureKey: key, authenticated: true, secureConnections: true,
                        keySize: 16)
        let document = BondDocument(adapters: [
            BondDocument.Adapter(name: AdapterIdentifier("hci0 \"quoted\""),
                                 // The adapter's own IRK may not be zero (a malformed-input test).
                                 identity: LocalIdentity(identityResolvingKey: max(key, 1),
                                                         address: BluetoothAddress(0xFFFF_FFFF_FFFE, kind: .random)),
                                 bonds: [bond]),
        ])
        #expect(try BondDocument(parsing: document.serialized()) == document)
    }

    @Test func hexIsMostSignificantFirst() {
        #expect(BondDocument.hex(UInt128(0x0102)) == "00000000000000000000000000000102")
        #expect(BondDocument.hex(UInt64(0x0102)) == "0000000000000102")
    }

    /// Upper-case hex digits, as a person may type them, read the same.
    @Test func upperCaseHexIsRead() throws {
        let text = try Self.goldenText().replacing("4c68384139f574d836bcf34e9dfb01bf",
                                                   with: "4C68384139F574D836BCF34E9DFB01BF")
        #expect(try BondDocument(parsing: text) == Self.golden)
    }
}

