#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
import TestSupport

/// `swift-att bonds` on files the tests write: listing (text, JSON, keys), removing,
/// clearing, the default path, a corrupt file and a file another process holds. No
/// controller needed.
@Suite("swift-att bonds")
struct BondsCommandTests {
    /// A directory for one test's files, removed afterwards.
    final class Scratch {
        let url: URL
        init() throws {
            url = FileManager.default.temporaryDirectory.appendingPathComponent("swift-att-bonds-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        }
        deinit { try? FileManager.default.removeItem(at: url) }
        func path(_ name: String) -> String { url.appendingPathComponent(name).path }

        /// A copy of Fixtures/bonds/bonds-v1.json (or another of its fixtures).
        func golden(_ fixture: String = "bonds-v1.json") throws -> String {
            let path = self.path("bonds.json")
            try FileManager.default.copyItem(atPath: FixtureFiles.url("bonds/" + fixture).path, toPath: path)
            return path
        }
    }

    static func json(_ result: SwiftATTProcess.Result) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    }

    // MARK: list

    @Test func listingAMissingFileCreatesNothing() async throws {
        let scratch = try Scratch()
        let path = scratch.path("not/yet/bonds.json")
        let result = try await SwiftATTProcess.run(["bonds", "--bonds", path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdoutLines == ["No bonds: \(path) does not exist yet."])
        #expect(!FileManager.default.fileExists(atPath: scratch.path("not")))
        let json = try Self.json(try await SwiftATTProcess.run(["bonds", "list", "--json", "--bonds", path]))
        #expect(json["exists"] as? Bool == false)
        #expect((json["identities"] as? [Any])?.isEmpty == true)
    }

    /// Without --bonds: $XDG_DATA_HOME, or ~/.local/share when it is unset or relative.
    @Test("the default bond file", arguments: [
        (["XDG_DATA_HOME": "/srv/data", "HOME": "/home/u"], "/srv/data/swift-att/bonds/bonds.json"),
        (["XDG_DATA_HOME": "", "HOME": "/home/u"], "/home/u/.local/share/swift-att/bonds/bonds.json"),
        (["XDG_DATA_HOME": "relative", "HOME": "/home/u"], "/home/u/.local/share/swift-att/bonds/bonds.json"),
    ])
    func defaultPath(_ environment: [String: String], _ expected: String) async throws {
        let result = try await SwiftATTProcess.run(["bonds"], environment: environment)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdoutLines == ["No bonds: \(expected) does not exist yet."])
    }

    @Test func listsIdentitiesAndBondsWithoutKeys() async throws {
        let scratch = try Scratch()
        let path = try scratch.golden()
        let result = try await SwiftATTProcess.run(["bonds", "list", "--bonds", path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdoutLines == [
            "Bond file \(path)",
            "",
            "Adapter F0:F0:F0:F0:00:01: identity C3:5A:10:22:8E:41 (static random)",
            "  D1:22:33:44:55:66 (random)  LTK, IRK  Secure Connections, unauthenticated, 16-octet key",
            "  00:1B:DC:07:32:EF (public)  LTK as central, LTK as peripheral, peer CSRK, local CSRK  legacy, authenticated, 7-octet key",
            "",
            "Adapter tcp:127.0.0.1:9000: identity FF:00:00:00:00:01 (static random)",
            "  no bonds",
        ])
    }

    @Test func keysArePrintedOnlyWhenAskedFor() async throws {
        let scratch = try Scratch()
        let path = try scratch.golden()
        let secrets = ["4c68384139f574d836bcf34e9dfb01bf", "ec0234a357c8ad05341010a60a397d9b", "000102030405060708090a0b0c0d0e0f",
                       "fedcba9876543210", "2b7e151628aed2a6abf7158809cf4f3c"]
        for arguments in [["bonds"], ["bonds", "--json"]] {
            let result = try await SwiftATTProcess.run(arguments + ["--bonds", path])
            for secret in secrets { #expect(!result.stdout.contains(secret), "\(arguments) printed a key") }
        }
        let keys = try await SwiftATTProcess.run(["bonds", "list", "--keys", "--bonds", path])
        #expect(keys.status == 0)
        #expect(keys.stdoutLines.contains("      LTK as central     ffeeddccbbaa99887766554433221100 (EDIV 48879, Rand fedcba9876543210)"))
        #expect(keys.stdoutLines.contains("      IRK                ec0234a357c8ad05341010a60a397d9b"))
        #expect(keys.stdoutLines.contains("Adapter F0:F0:F0:F0:00:01: identity C3:5A:10:22:8E:41 (static random), IRK 000102030405060708090a0b0c0d0e0f"))
        let json = try Self.json(try await SwiftATTProcess.run(["bonds", "--keys", "--json", "--bonds", path]))
        let identity = try #require((json["identities"] as? [[String: Any]])?.first)
        #expect(identity["irk"] as? String == "000102030405060708090a0b0c0d0e0f")
        let legacy = try #require((identity["bonds"] as? [[String: Any]])?.last)
        #expect((legacy["peripheralKey"] as? [String: Any])?["rand"] as? String == "0123456789abcdef")
    }

    @Test func listsAsJSON() async throws {
        let scratch = try Scratch()
        let path = try scratch.golden()
        let result = try await SwiftATTProcess.run(["bonds", "--json", "--bonds", path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdoutLines.count == 1)
        let json = try Self.json(result)
        #expect(json["file"] as? String == path)
        #expect(json["exists"] as? Bool == true)
        let identities = try #require(json["identities"] as? [[String: Any]])
        #expect(identities.map { $0["adapter"] as? String } == ["F0:F0:F0:F0:00:01", "tcp:127.0.0.1:9000"])
        #expect(identities.map { $0["address"] as? String } == ["C3:5A:10:22:8E:41", "FF:00:00:00:00:01"])
        let bonds = try #require(identities[0]["bonds"] as? [[String: Any]])
        #expect(bonds.map { $0["peer"] as? String } == ["D1:22:33:44:55:66", "00:1B:DC:07:32:EF"])
        #expect(bonds.map { $0["peerType"] as? String } == ["random", "public"])
        #expect(bonds[0]["keys"] as? [String] == ["centralKey", "peripheralKey", "irk"])
        #expect(bonds[1]["keys"] as? [String] == ["centralKey", "peripheralKey", "peerCSRK", "localCSRK"])
        #expect(bonds.map { $0["authenticated"] as? Bool } == [false, true])
        #expect(bonds.map { $0["secureConnections"] as? Bool } == [true, false])
        #expect(bonds.map { $0["keySize"] as? Int } == [16, 7])
        // Nothing kept beyond the keys yet.
        #expect(bonds.allSatisfy { $0["peerSignCounter"] is NSNull && $0["localSignCounter"] as? Int == 0 && $0["gatt"] is NSNull })
    }

    // MARK: What the hosts kept as they ran

    @Test func listsTheGATTStateAndTheSignCounters() async throws {
        let scratch = try Scratch()
        let path = try scratch.golden("bonds-v1-gatt.json")
        let result = try await SwiftATTProcess.run(["bonds", "list", "--bonds", path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdoutLines == [
            "Bond file \(path)",
            "",
            "Adapter F0:F0:F0:F0:00:01: identity C3:5A:10:22:8E:41 (static random)",
            "  D1:22:33:44:55:66 (random)  LTK, IRK  Secure Connections, unauthenticated, 16-octet key",
            "      GATT: 2 subscriptions, change-unaware, Service Changed owed for 0x000E–0x0015",
            "  00:1B:DC:07:32:EF (public)  LTK as central, LTK as peripheral, peer CSRK, local CSRK  legacy, authenticated, 7-octet key",
            "      GATT: 1 subscription, change-aware",
            "      sign counters: peer 41, local 4294967295",
            "",
            "Adapter tcp:127.0.0.1:9000: identity FF:00:00:00:00:01 (static random)",
            "  no bonds",
        ])
    }

    /// `--json` carries `gatt` as the file writes it, and the counters.
    @Test func listsTheGATTStateAndTheSignCountersAsJSON() async throws {
        let scratch = try Scratch()
        let path = try scratch.golden("bonds-v1-gatt.json")
        let json = try Self.json(try await SwiftATTProcess.run(["bonds", "list", "--json", "--bonds", path]))
        let identity = try #require((json["identities"] as? [[String: Any]])?.first)
        let bonds = try #require(identity["bonds"] as? [[String: Any]])
        #expect(bonds[0]["peerSignCounter"] is NSNull)
        #expect(bonds[0]["localSignCounter"] as? Int == 0)
        #expect(bonds[1]["peerSignCounter"] as? Int == 41)
        #expect(bonds[1]["localSignCounter"] as? Int == 4_294_967_295)
        let file = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        let written = try #require(((file["identities"] as? [String: Any])?["F0:F0:F0:F0:00:01"] as? [String: Any])?["bonds"] as? [[String: Any]])
        for index in 0..<2 {
            let listed = try #require(bonds[index]["gatt"] as? [String: Any])
            let kept = try #require(written[index]["gatt"] as? [String: Any])
            #expect(NSDictionary(dictionary: listed) == NSDictionary(dictionary: kept))
        }
        let gatt = try #require(bonds[0]["gatt"] as? [String: Any])
        #expect(gatt["changeAware"] as? Bool == false)
        #expect((gatt["subscriptions"] as? [[String: Any]])?.map { $0["uuid"] as? String } == ["2A05", "2A37"])
    }

    /// The GATT state is the bond's: removing the bond removes it, and leaves the other
    /// bond's state and counters as they were.
    @Test func removingABondRemovesWhatWasKeptWithIt() async throws {
        let scratch = try Scratch()
        let path = try scratch.golden("bonds-v1-gatt.json")
        let result = try await SwiftATTProcess.run(["bonds", "remove", "D1:22:33:44:55:66", "--bonds", path])
        #expect(result.status == 0, "\(result.stderr)")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(!text.contains("81ca5a2ff73bd14b641b08974afb73ba"))
        #expect(text.contains("f1ca2d48ecf58bac8a8830bbb9fba990"))
        #expect(text.contains("\"peerSignCounter\": 41"))
        let listed = try await SwiftATTProcess.run(["bonds", "list", "--bonds", path])
        #expect(listed.stdoutLines.filter { $0.contains("GATT:") } == ["      GATT: 1 subscription, change-aware"])
    }

    // MARK: remove and clear

    @Test func removesABondByItsAddress() async throws {
        let scratch = try Scratch()
        let path = try scratch.golden()
        let result = try await SwiftATTProcess.run(["bonds", "remove", "00:1b:dc:07:32:ef", "--bonds", path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdoutLines == ["Removed the bond with 00:1B:DC:07:32:EF (public) on adapter F0:F0:F0:F0:00:01 from \(path)."])
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(!text.contains("00:1B:DC:07:32:EF") && text.contains("D1:22:33:44:55:66"))

        let again = try await SwiftATTProcess.run(["bonds", "remove", "00:1B:DC:07:32:EF", "--bonds", path])
        #expect(again.status == 1)
        #expect(again.stderrLines == ["swift-att: error: bonds remove: no bond with 00:1B:DC:07:32:EF in \(path)"])
        #expect(try String(contentsOfFile: path, encoding: .utf8) == text)
    }

    /// A resolvable private address names the bond whose IRK resolves it: the one
    /// Core 5.4 Vol 3 Part H Appendix D.7 builds from the golden file's peer IRK.
    @Test func removesABondByAResolvablePrivateAddress() async throws {
        let scratch = try Scratch()
        let path = try scratch.golden()
        let result = try await SwiftATTProcess.run(["bonds", "remove", "70:81:94:0D:FB:AA", "--json", "--bonds", path])
        #expect(result.status == 0, "\(result.stderr)")
        let json = try Self.json(result)
        let removed = try #require(json["removed"] as? [[String: Any]])
        #expect(removed.count == 1)
        #expect(removed.first?["peer"] as? String == "D1:22:33:44:55:66")
        #expect(removed.first?["adapter"] as? String == "F0:F0:F0:F0:00:01")
    }

    @Test func clearRemovesEveryBondAndKeepsTheIdentities() async throws {
        let scratch = try Scratch()
        let path = try scratch.golden()
        let result = try await SwiftATTProcess.run(["bonds", "clear", "--bonds", path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdoutLines == [
            "Removed the bond with D1:22:33:44:55:66 (random) on adapter F0:F0:F0:F0:00:01 from \(path).",
            "Removed the bond with 00:1B:DC:07:32:EF (public) on adapter F0:F0:F0:F0:00:01 from \(path).",
            "Removed 2 bonds; each adapter keeps its identity.",
        ])
        var info = stat()
        #expect(stat(path, &info) == 0 && info.st_mode & 0o777 == 0o600)
        let list = try await SwiftATTProcess.run(["bonds", "--bonds", path])
        #expect(list.stdoutLines == [
            "Bond file \(path)", "",
            "Adapter F0:F0:F0:F0:00:01: identity C3:5A:10:22:8E:41 (static random)", "  no bonds", "",
            "Adapter tcp:127.0.0.1:9000: identity FF:00:00:00:00:01 (static random)", "  no bonds",
        ])
        let again = try await SwiftATTProcess.run(["bonds", "clear", "--bonds", path])
        #expect(again.status == 0)
        #expect(again.stdoutLines == ["No bonds in \(path)."])
        let json = try Self.json(try await SwiftATTProcess.run(["bonds", "clear", "--json", "--bonds", path]))
        #expect((json["removed"] as? [Any])?.isEmpty == true)
    }

    @Test func clearingAMissingFileCreatesNothing() async throws {
        let scratch = try Scratch()
        let path = scratch.path("none/bonds.json")
        let result = try await SwiftATTProcess.run(["bonds", "clear", "--bonds", path])
        #expect(result.status == 0)
        #expect(result.stdoutLines == ["No bonds in \(path)."])
        #expect(!FileManager.default.fileExists(atPath: scratch.path("none")))
    }

    // MARK: Errors

    /// Every action refuses a corrupt file with its path and the JSON path at fault,
    /// exit status 1, and leaves the file as it was.
    @Test("a corrupt file", arguments: [["list"], ["list", "--json"], ["remove", "D1:22:33:44:55:66"], ["clear"]])
    func corruptFile(_ action: [String]) async throws {
        let scratch = try Scratch()
        let path = try scratch.golden()
        let text = try String(contentsOfFile: path, encoding: .utf8).replacing(#""keySize": 7"#, with: #""keySize": "7""#)
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        let result = try await SwiftATTProcess.run(["bonds"] + action + ["--bonds", path])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderrLines == [
            "swift-att: error: \(path): identities[\"F0:F0:F0:F0:00:01\"].bonds[1].keySize: expected an integer, found a string (the file is left as it is: mend it, or move it away to start afresh)",
        ])
        #expect(try String(contentsOfFile: path, encoding: .utf8) == text)
    }

    /// While another process holds the file, remove and clear are refused (exit 3)
    /// and the file is untouched; list still reads it.
    @Test func aFileAnotherProcessHolds() async throws {
        let scratch = try Scratch()
        let path = try scratch.golden()
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let lock = open(path + ".lock", O_RDWR | O_CREAT, 0o600)
        #expect(lock >= 0 && flock(lock, LOCK_EX | LOCK_NB) == 0)
        defer { close(lock) }
        for action in [["remove", "D1:22:33:44:55:66"], ["clear"]] {
            let result = try await SwiftATTProcess.run(["bonds"] + action + ["--bonds", path])
            #expect(result.status == 3)
            #expect(result.stderrLines == [
                "swift-att: error: \(path) is in use: another swift-att process holds its lock (\(path).lock); stop it, or give this one a file of its own with --bonds FILE",
            ])
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        #expect(try await SwiftATTProcess.run(["bonds", "--bonds", path]).status == 0)
    }

    @Test("usage errors", arguments: [
        (["bonds", "forget"], "bonds: unknown action 'forget' (list, remove or clear)"),
        (["bonds", "remove"], "bonds remove: give the peer's address (C0:B0:00:00:00:0A)"),
        (["bonds", "remove", "nope"], "bonds remove: give the peer's address (C0:B0:00:00:00:0A), not 'nope'"),
        (["bonds", "remove", "C0:B0:00:00:00:0A", "C0:B0:00:00:00:0B"], "bonds remove: give the peer's address (C0:B0:00:00:00:0A), once"),
        (["bonds", "clear", "--keys"], "bonds clear: --keys is for 'list'"),
        (["bonds", "list", "extra"], "bonds list: unexpected argument 'extra'"),
        (["bonds", "--bonds"], "bonds: --bonds needs a value (see 'swift-att bonds --help')"),
        (["bonds", "--verbose"], "unknown option '--verbose' for 'bonds' (see 'swift-att bonds --help')"),
    ])
    func usageErrors(_ arguments: [String], _ message: String) async throws {
        let result = try await SwiftATTProcess.run(arguments)
        #expect(result.status == 2)
        #expect(result.stderrLines == ["swift-att: error: \(message)"])
    }

    @Test func help() async throws {
        let help = try await SwiftATTProcess.run(["bonds", "--help"])
        #expect(help.status == 0)
        #expect(help.stdoutLines.first == "USAGE: swift-att bonds [list] [--keys] [--json] [--bonds <file>]")
        #expect(try await SwiftATTProcess.run(["help", "bonds"]).stdout == help.stdout)
        #expect(try await SwiftATTProcess.run(["--help"]).stdout.contains("bonds [list|remove|clear]"))
        for command in ["central", "peripheral", "info"] {
            #expect(try await SwiftATTProcess.run([command, "--help"]).stdout.contains("--bonds"), "\(command) --help")
        }
    }
}
