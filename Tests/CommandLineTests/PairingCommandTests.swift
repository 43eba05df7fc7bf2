#if canImport(Glibc)
import Glibc
#endif
import BenchSupport
import Foundation
import PseudoTerminal
import Testing
import TestSupport

/// `swift-att central pair`, `--io`/`--passkey`/`--yes`, and `swift-att peripheral --io`
/// against Bumble's Security Manager (Tests/bench/bumble_peer.py), the way a user runs
/// them: from a script (answers given as options) and at a terminal (prompts).
@Suite(.serialized) struct PairingCommandTests {
    static let bumbleAddress = "C0:B0:00:00:00:31"

    /// Bumble advertising as "bumble-smp" with `options` on controller 0; the transport of
    /// controller 1 for swift-att.
    static func bumble(_ options: [String]) async throws -> (BumbleBench, BumblePeer, String) {
        let bench = try await BumbleBench(controllers: 2)
        let peer = try BumblePeer(bench: bench, controller: 0, address: bumbleAddress,
                                  arguments: options + ["advertise", "--name", "bumble-smp", "--readvertise"])
        _ = try await peer.next("ready")
        return (bench, peer, bench.transports[1])
    }

    static func event(_ name: String, in result: SwiftATTProcess.Result) -> [String: Any]? {
        CentralCommandTests.objects(result).first { $0["event"] as? String == name }
    }

    @Test func pairJustWorksPrintsHowItPaired() async throws {
        let (bench, bumble, transport) = try await Self.bumble([])
        defer { bumble.stop(); bench.stop() }
        let text = try await SwiftATTProcess.run(["central", "pair", "bumble-smp", "--transport", transport])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout == "paired with \(Self.bumbleAddress): LE Secure Connections, Just Works (unauthenticated), 16-octet key, bonded\n")
        // Bumble finishes its side in a task the disconnection that follows may cancel
        // (BENCH.md): its keys are compared in BumblePairingTests, which waits for them.
        _ = try await bumble.next("disconnected")

        let json = try await SwiftATTProcess.run(["central", "pair", Self.bumbleAddress, "--json", "--transport", transport])
        #expect(json.status == 0, "\(json.stderr)")
        let paired = try #require(Self.event("paired", in: json))
        #expect(paired["method"] as? String == "Just Works")
        #expect(paired["secureConnections"] as? Bool == true && paired["authenticated"] as? Bool == false)
        #expect(paired["keySize"] as? Int == 16 && paired["bonded"] as? Bool == true)
        #expect(paired["identity"] as? String == Self.bumbleAddress)
        #expect(Self.event("security", in: json)?["encrypted"] as? Bool == true)
    }

    @Test func pairWithThePasskeyTheDeviceShows() async throws {
        let (bench, bumble, transport) = try await Self.bumble(["--io", "display", "--passkey", "314159"])
        defer { bumble.stop(); bench.stop() }
        let right = try await SwiftATTProcess.run(["central", "pair", "bumble-smp", "--io", "keyboard", "--passkey", "314159",
                                                   "--json", "--transport", transport])
        #expect(right.status == 0, "\(right.stderr)")
        #expect(Self.event("paired", in: right)?["authenticated"] as? Bool == true)
        #expect(Self.event("paired", in: right)?["method"] as? String == "Passkey Entry")
        _ = try await bumble.next("disconnected")

        // A wrong passkey: both Security Managers see Confirm Value Failed; exit 4.
        let wrong = try await SwiftATTProcess.run(["central", "pair", "bumble-smp", "--io", "keyboard", "--passkey", "271828",
                                                   "--transport", transport])
        #expect(wrong.status == 4)
        #expect(wrong.stderr.contains("pairing with \(Self.bumbleAddress): Confirm Value Failed"), "\(wrong.stderr)")
        #expect(try await bumble.next("pairing-failure")["reason"] as? Int == 0x04)
    }

    @Test func numericComparisonNeedsYesWithoutATerminal() async throws {
        let (bench, bumble, transport) = try await Self.bumble(["--io", "display-yesno"])
        defer { bumble.stop(); bench.stop() }
        // No terminal to ask on, no --yes: the number is refused, and the message says how.
        let refused = try await SwiftATTProcess.run(["central", "pair", "bumble-smp", "--io", "display-yesno", "--transport", transport])
        #expect(refused.status == 4)
        #expect(refused.stderr.contains("needs --yes, or a terminal to answer on"), "\(refused.stderr)")
        #expect(refused.stderr.contains("Numeric Comparison Failed"), "\(refused.stderr)")
        _ = try await bumble.next("compare")
        _ = try await bumble.next("disconnected")

        let accepted = try await SwiftATTProcess.run(["central", "pair", "bumble-smp", "--io", "display-yesno", "--yes",
                                                      "--json", "--transport", transport])
        #expect(accepted.status == 0, "\(accepted.stderr)")
        // Both devices showed the same six digits.
        let shown = try #require(Self.event("confirm-number", in: accepted)?["number"] as? String)
        #expect(Int(shown) == (try await bumble.next("compare"))["number"] as? Int)
        #expect(Self.event("paired", in: accepted)?["method"] as? String == "Numeric Comparison")
    }

    /// At a terminal the central asks, and the user's answers decide.
    @Test func aTerminalUserConfirmsTheNumberAndTypesThePasskey() async throws {
        let (bench, bumble, transport) = try await Self.bumble(["--io", "display-yesno"])
        defer { bumble.stop(); bench.stop() }
        let terminal = try Terminal()
        let status = try await terminal.run(["central", "pair", "bumble-smp", "--io", "display-yesno", "--transport", transport]) { screen in
            guard screen.contains("[y/N]") else { return nil }
            return "y\n"
        }
        #expect(status == 0, "\(terminal.screen)")
        let compared = try await bumble.next("compare")
        let number = String(format: "%06d", compared["number"] as? Int ?? -1)
        #expect(terminal.screen.contains("Does the device \(Self.bumbleAddress) show \(number)? [y/N]"), "\(terminal.screen)")
        #expect(terminal.output.contains("Numeric Comparison (authenticated)"), "\(terminal.output)")
    }

    @Test func aTerminalUserTypesThePasskey() async throws {
        let (bench, bumble, transport) = try await Self.bumble(["--io", "display", "--passkey", "000123"])
        defer { bumble.stop(); bench.stop() }
        let terminal = try Terminal()
        let status = try await terminal.run(["central", "pair", "bumble-smp", "--io", "keyboard", "--transport", transport]) { screen in
            guard screen.contains("Passkey shown by") else { return nil }
            return "123\n"
        }
        #expect(status == 0, "\(terminal.screen)")
        #expect(terminal.output.contains("Passkey Entry (authenticated)"), "\(terminal.output)")
    }

    @Test func aPeripheralShowsItsPasskeyToAPairingCentral() async throws {
        let bench = try await BumbleBench(controllers: 2)
        defer { bench.stop() }
        let database = Repository.url("Fixtures/gatt/sensor.json").path
        let peripheral = try RunningSwiftATT(["--database", database, "--io", "display", "--passkey", "654321", "--json",
                                              "--transport", bench.transports[0]])
        defer { peripheral.stop() }
        let address = try #require(try await peripheral.json("advertising")["address"] as? String)
        let bumble = try BumblePeer(bench: bench, controller: 1, address: Self.bumbleAddress,
                                    arguments: ["--io", "keyboard", "--passkey", "654321", "--mitm",
                                                "central", "--target", address, "--pair"])
        defer { bumble.stop() }
        _ = try await bumble.next("paired", timeout: .seconds(20))
        #expect(try await peripheral.json("passkey")["passkey"] as? String == "654321")
        let paired = try await peripheral.json("paired")
        #expect(paired["method"] as? String == "Passkey Entry")
        #expect(paired["authenticated"] as? Bool == true)
        #expect(paired["identity"] as? String == Self.bumbleAddress)
    }

    /// The encrypted characteristic of Fixtures/gatt/sensor.json (its value: "hidden").
    static let sensorSecret = "A7C10004-5E4B-4C7A-9F2E-3D6B1A0C0001"

    /// `swift-att peripheral` serving Fixtures/gatt/sensor.json on controller 0, and the
    /// address it advertises from.
    static func sensorPeripheral(on bench: BumbleBench, _ extra: [String] = []) async throws -> (RunningSwiftATT, String) {
        let database = FixtureFiles.url("gatt/sensor.json").path
        let peripheral = try RunningSwiftATT(["--database", database, "--json", "--transport", bench.transports[0]] + extra)
        do {
            let address = try #require(try await peripheral.json("advertising")["address"] as? String)
            return (peripheral, address)
        } catch {
            peripheral.stop()
            throw error
        }
    }

    /// Two swift-att processes over Bumble's controllers: the JSON database's
    /// "encrypted" value is refused, the central pairs by itself, reads it; both report it.
    @Test func aSwiftATTCentralPairsWithASwiftATTPeripheralToReadItsSecret() async throws {
        let bench = try await BumbleBench(controllers: 2)
        defer { bench.stop() }
        let (peripheral, address) = try await Self.sensorPeripheral(on: bench)
        defer { peripheral.stop() }
        let secret = Self.sensorSecret
        let read = try await SwiftATTProcess.run(["central", "read", address, secret, "--json", "--transport", bench.transports[1]])
        #expect(read.status == 0, "\(read.stderr)")
        #expect(Self.event("read", in: read)?["text"] as? String == "hidden", "\(read.stdout)")
        let paired = try #require(Self.event("paired", in: read))
        #expect(paired["method"] as? String == "Just Works" && paired["secureConnections"] as? Bool == true)
        #expect(try await peripheral.json("paired")["keySize"] as? Int == 16)
        #expect(try await peripheral.json("security")["encrypted"] as? Bool == true)
    }

    /// `--security`: the link is secured as soon as it is up, before the action; a level
    /// the two sides cannot reach ends the command with what was reached.
    @Test func securityLevelAskedUpFront() async throws {
        let bench = try await BumbleBench(controllers: 2)
        defer { bench.stop() }
        let (peripheral, address) = try await Self.sensorPeripheral(on: bench)
        defer { peripheral.stop() }
        let secret = Self.sensorSecret
        let read = try await SwiftATTProcess.run(["central", "read", address, secret, "--security", "medium", "--json",
                                                  "--transport", bench.transports[1]])
        #expect(read.status == 0, "\(read.stderr)")
        let events = CentralCommandTests.objects(read).compactMap { $0["event"] as? String }
        // Paired before the connection was reported, so before any request.
        let paired = try #require(events.firstIndex(of: "paired"), "\(events)")
        let connected = try #require(events.firstIndex(of: "connected"), "\(events)")
        #expect(paired < connected, "\(events)")
        #expect(Self.event("read", in: read)?["text"] as? String == "hidden", "\(read.stdout)")

        // Both sides without IO: Just Works cannot authenticate.
        let short = try await SwiftATTProcess.run(["central", "read", address, secret, "--security", "authenticated",
                                                   "--transport", bench.transports[1]])
        #expect(short.status == 4, "\(short.stderr)")
        #expect(short.stderr.contains("the link is encrypted (unauthenticated, 16-octet key), short of what was asked: authentication"),
                "\(short.stderr)")
    }

    /// `central write --signed` after `central pair`, each run a new process sharing the
    /// central's bond file: the peripheral takes the Signed Write Command only because the
    /// key in it is the one the central gave when they bonded.
    @Test func aSignedWriteFromABondedCentral() async throws {
        let bench = try await BumbleBench(controllers: 2)
        defer { bench.stop() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("swift-att-signed-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = directory.appendingPathComponent("signed.json")
        try Data("""
            { "name": "signed", "advertise": ["FE50"], "services": [ { "uuid": "FE50", "characteristics": [
                { "uuid": "FE51", "name": "Switch", "properties": ["authenticated-signed-writes"], "hex": "00" },
                { "uuid": "FE52", "name": "Label", "properties": ["read"], "text": "plain" } ] } ] }
            """.utf8).write(to: database)
        let peripheral = try RunningSwiftATT(["--database", database.path, "--json", "--bonds", directory.appendingPathComponent("p.json").path,
                                              "--transport", bench.transports[0]])
        defer { peripheral.stop() }
        let address = try #require(try await peripheral.json("advertising")["address"] as? String)
        let bonds = directory.appendingPathComponent("c.json").path
        // Before bonding there is no key to sign with.
        let early = try await SwiftATTProcess.run(["central", "write", address, "FE51", "01", "--signed", "--bonds", bonds,
                                                   "--transport", bench.transports[1]])
        #expect(early.status == 4)
        #expect(early.stderr.contains("CSRK"), "\(early.stderr)")
        let pair = try await SwiftATTProcess.run(["central", "pair", address, "--bonds", bonds, "--transport", bench.transports[1]])
        #expect(pair.status == 0, "\(pair.stderr)")
        _ = try await peripheral.json("paired")
        let write = try await SwiftATTProcess.run(["central", "write", address, "FE51", "01", "--signed", "--bonds", bonds,
                                                   "--transport", bench.transports[1]])
        #expect(write.status == 0, "\(write.stderr)")
        #expect(write.stdout == "wrote 1 byte to FE51 (signed, without response)\n")
        let written = try await peripheral.json("written") { $0["uuid"] as? String == "FE51" }
        #expect(written["kind"] as? String == "signed write command")
        #expect(written["value"] as? String == "01")
        // A characteristic that does not take signed writes is refused before sending.
        let refused = try await SwiftATTProcess.run(["central", "write", address, "FE52", "01", "--signed", "--bonds", bonds,
                                                     "--transport", bench.transports[1]])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("does not take signed writes"), "\(refused.stderr)")
    }

    @Test func pairingOptionsAreCheckedBeforeAnyRadioWork() async throws {
        for (arguments, message) in [
            (["central", "pair", "x", "--io", "telepathy"], "--io takes none, display, display-yesno, keyboard or keyboard-display, not 'telepathy'"),
            (["central", "pair", "x", "--passkey", "12345"], "--passkey takes six digits (000000 to 999999), not '12345'"),
            (["central", "pair", "x", "--passkey", "1234567"], "--passkey takes six digits"),
            (["central", "pair"], "central pair: give one device"),
            (["peripheral", "battery", "--io", "loud"], "peripheral: --io takes"),
            (["central", "read", "x", "2A37", "--security", "loud"],
             "--security takes open, encrypted, authenticated or secure-connections (gatttool's low, medium, high, fips), not 'loud'"),
            (["central", "scan", "--security", "encrypted"], "central scan: --security is for actions that connect"),
            (["central", "read", "x", "2A37", "--security", "high", "--no-pair"], "which --no-pair forbids"),
        ] {
            let result = try await SwiftATTProcess.run(arguments + ["--transport", "tcp:127.0.0.1:1"])
            #expect(result.status == 2, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
        }
    }
}

/// swift-att run on a pseudo-terminal, as a user at a terminal runs it: standard input
/// and standard error are the terminal (prompts appear there, answers are typed there);
/// standard output goes to a file.
final class Terminal {
    private let master: Int32
    private let slavePath: String
    private(set) var screen = ""
    private(set) var output = ""

    init() throws {
        var name = [CChar](repeating: 0, count: 128)
        master = pseudo_terminal_open(&name, 128)
        guard master >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        slavePath = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    deinit { close(master) }

    /// Runs `swift-att arguments…`; whenever what the terminal shows makes `answer`
    /// return text, types it (once per prompt). Returns the exit status.
    func run(_ arguments: [String], timeout: Duration = .seconds(30), answer: (String) -> String?) async throws -> Int32 {
        guard let binary = SwiftATTProcess.binary else {
            throw SwiftATTProcess.BinaryNotFound(searched: SwiftATTProcess.candidates.map(\.path))
        }
        let slave = try FileHandle(forUpdating: URL(fileURLWithPath: slavePath))
        let outputURL = FileManager.default.temporaryDirectory.appendingPathComponent("swift-att-tty-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: outputURL) }
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        // A bond file of its own: never the user's, nor one another swift-att holds locked.
        let dataHome = FileManager.default.temporaryDirectory.appendingPathComponent("swift-att-tty-data-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dataHome) }
        process.environment = SwiftATTProcess.environment(dataHome: dataHome.path)
        process.standardInput = slave
        process.standardError = slave
        process.standardOutput = try FileHandle(forWritingTo: outputURL)
        let exit = ArrivalLog<Int32>()
        process.terminationHandler = { exit.append($0.terminationStatus); exit.finish() }
        try process.runStoppable()
        try slave.close()
        var answered = 0
        let deadline = ContinuousClock.now + timeout
        while exit.elements.isEmpty, ContinuousClock.now < deadline {
            var pfd = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            if poll(&pfd, 1, 100) > 0 {
                var chunk = [UInt8](repeating: 0, count: 4096)
                let n = read(master, &chunk, chunk.count)
                if n > 0 { screen += String(decoding: chunk[..<n], as: UTF8.self) }
            }
            // One answer per prompt: count the prompts shown so far.
            let prompts = screen.components(separatedBy: "[y/N]").count - 1 + screen.components(separatedBy: "Passkey shown by").count - 1
            if prompts > answered, let text = answer(screen) {
                answered += 1
                _ = text.utf8CString.withUnsafeBufferPointer { write(master, $0.baseAddress, $0.count - 1) }
            }
        }
        if exit.elements.isEmpty { process.terminate() }
        let status = try await exit.first("swift-att's exit") { $0 }.value
        output = (try? String(contentsOf: outputURL, encoding: .utf8)) ?? ""
        return status
    }
}
