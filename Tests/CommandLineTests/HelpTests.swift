import Foundation
import Testing

@Suite("swift-att help and version")
struct HelpTests {
    @Test("the main help lists the commands", arguments: [["--help"], ["-h"], ["help"], ["help", "help"]])
    func mainHelp(_ arguments: [String]) async throws {
        let r = try await SwiftATTProcess.run(arguments)
        #expect(r.status == 0)
        #expect(r.stderr == "")
        #expect(r.stdout.hasPrefix("USAGE: swift-att <command>"))
        #expect(r.stdout.contains("decode att <hex> [--json]"))
        #expect(r.stdout.contains("encode att <json>"))
        #expect(r.stdout.contains("--version"))
    }

    @Test("each command has its help", arguments: [
        (["decode", "--help"], "USAGE: swift-att decode att <hex> [--json]"),
        (["decode", "att", "-h"], "USAGE: swift-att decode att <hex> [--json]"),
        (["help", "decode"], "USAGE: swift-att decode att <hex> [--json]"),
        (["encode", "--help"], "USAGE: swift-att encode att <json>"),
        (["help", "encode"], "USAGE: swift-att encode att <json>"),
    ])
    func commandHelp(_ arguments: [String], _ first: String) async throws {
        let r = try await SwiftATTProcess.run(arguments)
        #expect(r.status == 0)
        #expect(r.stderr == "")
        #expect(r.stdoutLines.first == first)
    }

    @Test("help names profiles by what they are, not by the code's labels for them", arguments: [
        [], ["decode"], ["encode"], ["dump"], ["info"], ["peripheral"], ["central"], ["l2cap"], ["adapters"], ["bonds"], ["bridge"],
    ])
    func helpSaysWhatThingsAre(_ command: [String]) async throws {
        let r = try await SwiftATTProcess.run(["help"] + command)
        #expect(r.status == 0)
        #expect(!r.stdout.lowercased().contains("seed"))
    }

    @Test("--version prints a version")
    func version() async throws {
        let r = try await SwiftATTProcess.run(["--version"])
        #expect(r.status == 0)
        #expect(r.stderr == "")
        let line = try #require(r.stdoutLines.first)
        #expect(r.stdoutLines.count == 1)
        #expect(line.hasPrefix("swift-att "))
        #expect(line.dropFirst("swift-att ".count).split(separator: ".").count == 3)
    }
}
