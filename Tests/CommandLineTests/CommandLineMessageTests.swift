#if canImport(Glibc)
import Glibc
#endif
import BenchSupport
import Foundation
import Testing
import TestSupport

/// The messages of issue 23: arguments checked before any radio work, each bad token
/// named; a host that does not resolve said as such; a `tcp-server:` that says it waits;
/// ATT application errors numbered once; counts in the number they take; `encode att`
/// on a text that is not JSON.
@Suite("swift-att messages")
struct CommandLineMessageTests {
    /// A command line with one bad token, the exit status it earns and what its error
    /// names.
    struct BadArguments: CustomTestStringConvertible, Sendable {
        var arguments: [String]
        var status: Int32 = 2
        var names: String
        var testDescription: String { arguments.joined(separator: " ") }
    }

    /// The transport names a port nobody serves: had the command opened it, it would end
    /// with exit 3 ("connection refused"), after a line saying so.
    @Test("bad operands are named before the controller is opened", arguments: [
        BadArguments(arguments: ["central", "read", "HRM", "zz"], names: "central read: 'zz' is neither a characteristic UUID"),
        BadArguments(arguments: ["central", "subscribe", "HRM", "0x12345"], names: "'0x12345' is neither a characteristic UUID"),
        BadArguments(arguments: ["central", "read", "HRM", "0x0000"], names: "'0x0000' is not a handle"),
        BadArguments(arguments: ["central", "write", "HRM", "zz", "01"], names: "central write: 'zz' is neither"),
        BadArguments(arguments: ["central", "write", "nobody", "2A39", "zz"], status: 1, names: "central write: 'zz' is not hex"),
        BadArguments(arguments: ["central", "light", "3=maybe"], names: "'3=maybe' is not a light command"),
        BadArguments(arguments: ["central", "light", "HRM", "3=on", "3=maybe"], names: "'3=maybe' is not a light command"),
        BadArguments(arguments: ["central", "read", "C0:B0:00:00:00:0Z", "2A37"], names: "'C0:B0:00:00:00:0Z' is not a Bluetooth address"),
        BadArguments(arguments: ["central", "discover", "C0:B0:00:00:0A"], status: 3, names: "ECONNREFUSED"),
        BadArguments(arguments: ["central", "discover", "HRM", "--text"], names: "--text is for 'write'"),
        BadArguments(arguments: ["central", "read", "HRM", "2A37", "--send", "hi"], names: "--send 'hi' is for 'hc08'"),
        BadArguments(arguments: ["l2cap", "connect", "C0:B0:00:00:00:GG", "0x80"], names: "'C0:B0:00:00:00:GG' is not a Bluetooth address"),
    ])
    func refusedBeforeRadioWork(_ c: BadArguments) async throws {
        let r = try await SwiftATTProcess.run(c.arguments + ["--transport", "tcp:127.0.0.1:1"])
        #expect(r.status == c.status, "\(r.stderr)")
        #expect(r.stdout.isEmpty)
        #expect(r.stderrLines.count == 1, "\(r.stderr)")
        #expect(r.stderr.hasPrefix("swift-att: error: "), "\(r.stderr)")
        #expect(r.stderr.contains(c.names), "\(r.stderr)")
    }

    /// The operands that pass the check go on to the transport (which fails: exit 3).
    @Test(arguments: [["read", "HRM", "0x0012"], ["write", "HRM", "2A39", "zz", "--text"], ["light", "3=on"],
                      ["discover", "C0:B0:00:00:00:0A"], ["write", "HRM", "713d0003-503e-4c75-ba94-3148f18d941e", "0301"]])
    func goodOperandsReachTheTransport(_ arguments: [String]) async throws {
        let r = try await SwiftATTProcess.run(["central"] + arguments + ["--transport", "tcp:127.0.0.1:1"])
        #expect(r.status == 3, "\(arguments): \(r.stderr)")
        #expect(r.stderr.contains("ECONNREFUSED"), "\(r.stderr)")
    }

    /// A name that does not resolve (`.invalid` never does, RFC 6761) is a lookup's
    /// failure, with its reason, and no list of transport syntaxes; the command's own
    /// bad operand is still named first.
    @Test(arguments: [["info"], ["central", "read", "HRM", "2A37"], ["peripheral", "battery"], ["l2cap", "listen", "0x80"],
                      ["bridge", "tcp:nowhere.invalid:9000", "tcp-server:127.0.0.1:1"]])
    func unresolvableHost(_ arguments: [String]) async throws {
        let transport = arguments.first == "bridge" ? [] : ["--transport", "tcp:nowhere.invalid:9000"]
        let r = try await SwiftATTProcess.run(arguments + transport)
        #expect(r.status == 3, "\(r.stderr)")
        #expect(r.stderrLines.count == 1, "\(r.stderr)")
        #expect(r.stderr.hasPrefix("swift-att: error: tcp:nowhere.invalid:9000: cannot resolve the host 'nowhere.invalid': "), "\(r.stderr)")
        #expect(!r.stderr.contains("expected hci0"), "\(r.stderr)")
    }

    @Test func badOperandBeforeUnresolvableHost() async throws {
        let r = try await SwiftATTProcess.run(["central", "read", "HRM", "zz", "--transport", "tcp:nowhere.invalid:9000"])
        #expect(r.status == 2, "\(r.stderr)")
        #expect(r.stderr.contains("'zz'"), "\(r.stderr)")
    }

    /// `tcp-server:` says that it waits, for whom, where and how long; then it waits.
    @Test(arguments: ["info", "central", "peripheral"])
    func tcpServerSaysItWaits(_ command: String) async throws {
        let port = BumbleBench.freePorts(1)[0]
        let arguments = ["info": [], "central": ["read", "HRM", "2A37"], "peripheral": ["battery"]][command]!
        let waiting = try RunningSwiftATT(arguments + ["--transport", "tcp-server:127.0.0.1:\(port)"], command: command, errorsInOutput: true)
        defer { waiting.stop() }
        try await waiting.line { $0 == "swift-att: waiting for a controller to connect to 127.0.0.1:\(port) (tcp-server), up to 30 s…" }
        #expect(waiting.process.isRunning)
    }

    /// ATT's application errors (0x80–0x9F) are named by their number: once.
    @Test func applicationErrorDecoded() async throws {
        let r = try await SwiftATTProcess.run(["decode", "att", "013f2b0080"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdoutLines.contains("  Error:           0x80 Application Error"), "\(r.stdout)")
    }

    /// A dump's lists count in the number the count takes: "Entries: 1 entry".
    @Test func countsInDump() async throws {
        let r = try await SwiftATTProcess.run(["dump", Repository.url("Fixtures/captures/gatt-mtu23-central.btsnoop").path])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdoutLines.contains("    Entries: 1 entry"), "\(r.stdout.prefix(2000))")
        #expect(!r.stdout.contains(" 1 entries"))
    }

    @Test("encode att: a text that is not JSON is named, with what it should be", arguments: [
        ("not json", "swift-att: error: 'not json' is not JSON: give " + EncodeCommandTests.wanted),
        (#"{"opcode":10x}"#, #"swift-att: error: not valid JSON at offset 12, after '{"opcode":10': "#
            + "unexpected character 'x', expected ',' or '}' after an object member"),
        ("42", "swift-att: error: expected " + EncodeCommandTests.wanted + ", found an integer"),
        (" ", "swift-att: error: nothing to encode: give " + EncodeCommandTests.wanted),
    ])
    func encodeNotJSON(_ text: String, _ message: String) async throws {
        let r = try await SwiftATTProcess.run(["encode", "att", text])
        #expect(r.status == 1)
        #expect(r.stdout.isEmpty)
        #expect(r.stderrLines == [message])
    }

    @Test func encodeNotJSONOnALine() async throws {
        let r = try await SwiftATTProcess.run(["encode", "att", "-"], input: "nope\n{\"opcode\":19}\n")
        #expect(r.status == 1)
        #expect(r.stdoutLines == ["13"])
        #expect(r.stderrLines.count == 1)
        #expect(r.stderr.hasPrefix("swift-att: error: line 1: 'nope' is not JSON: give a JSON object"), "\(r.stderr)")
    }
}

/// The messages that need a peer: swift-att's heart-rate peripheral answers a Control
/// Point value it does not support with HRS's Application Error 0x80, and its transfer
/// of a short text goes in one chunk.
@Suite("swift-att messages against a peer", .serialized)
struct CommandLinePeerMessageTests {
    @Test func applicationErrorAndOneChunk() async throws {
        let bench = try await BumbleBench(controllers: 2)
        defer { bench.stop() }
        let transport = bench.transports[1]

        do {
            let peripheral = try RunningSwiftATT(["heart-rate", "--transport", bench.transports[0], "--json"])
            defer { peripheral.stop() }
            _ = try await peripheral.json("advertising")
            let r = try await SwiftATTProcess.run(["central", "write", "HRM", "2A39", "02", "--transport", transport])
            #expect(r.status == 4, "\(r.stderr)")
            #expect(r.stderr.contains(": Application Error 0x80"), "\(r.stderr)")
            #expect(!r.stderr.contains("(0x80)"), "\(r.stderr)")
        }

        do {
            let peripheral = try RunningSwiftATT(["transfer", "--text", "hello", "--transport", bench.transports[0]])
            defer { peripheral.stop() }
            _ = try await peripheral.line { $0.contains(": advertising ") }
            let r = try await SwiftATTProcess.run(["central", "transfer", "--transport", transport])
            #expect(r.status == 0, "\(r.stderr)")
            #expect(r.stdoutLines == ["hello"])
            try await peripheral.line { $0.hasSuffix("sending 5 bytes in 1 chunk + EOM") }
            try await peripheral.line { $0.hasSuffix("transfer complete: 5 bytes in 1 chunk + EOM") }
        }
    }
}
