import Foundation
import Testing
@testable import swift_att

/// What Tab offers in the shell, how characteristic names are typed, and the history file.
struct ShellCompletionTests {
    let completion = ShellCompletion(characteristics: ["2A37", "heart-rate-measurement", "2A39", "heart-rate-control-point"],
                                     devices: ["C0:B0:00:00:00:0B", "bumble"])

    @Test func commandsFirstThenWhatEachCommandTakes() {
        #expect(completion.candidates(line: "", wordStart: 0) == ShellCompletion.commands.sorted())
        #expect(completion.candidates(line: "wr", wordStart: 0) == ["write", "write-cmd", "write-text"])
        #expect(completion.candidates(line: "read heart", wordStart: 5) == ["heart-rate-control-point", "heart-rate-measurement"])
        #expect(completion.candidates(line: "subscribe 2a3", wordStart: 10) == ["2A37", "2A39"])
        #expect(completion.candidates(line: "connect b", wordStart: 8) == ["bumble"])
        #expect(completion.candidates(line: "connect c0", wordStart: 8) == ["C0:B0:00:00:00:0B"])
        // A value is not completed, nor a third word, nor an unknown command's.
        #expect(completion.candidates(line: "write 2A39 0", wordStart: 11).isEmpty)
        #expect(completion.candidates(line: "fly a", wordStart: 4).isEmpty)
        #expect(ShellCompletion.commonPrefix(["heart-rate-control-point", "heart-rate-measurement"]) == "heart-rate-")
    }

    @Test func characteristicsByName() throws {
        #expect(CharacteristicNames.slug("Heart Rate Measurement") == "heart-rate-measurement")
        #expect(CharacteristicNames.slug("PnP ID") == "pnp-id")
        #expect(CharacteristicNames.uuidsBySlug["heart-rate-measurement"]?.description == "2A37")
        #expect(CharacteristicNames.uuidsBySlug["battery-level"]?.description == "2A19")
        #expect(try CentralConnector.characteristicReference("Body-Sensor-Location") == .uuid(try #require(CharacteristicNames.uuidsBySlug["body-sensor-location"])))
        #expect(throws: CommandError.self) { try CentralConnector.characteristicReference("heart") }
    }

    @Test func historyAppendsLoadsAndCutsBack() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("swift-att-history-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.path + "/state/swift-att/history"
        #expect(ShellHistory.defaultPath(environment: ["XDG_STATE_HOME": directory.path + "/state", "HOME": "/home/u"]) == path)
        #expect(ShellHistory.defaultPath(environment: ["HOME": "/home/u"]) == "/home/u/.local/state/swift-att/history")
        #expect(ShellHistory.defaultPath(environment: ["XDG_STATE_HOME": "relative", "HOME": "/home/u"]) == "/home/u/.local/state/swift-att/history")

        let history = ShellHistory(path: path, limit: 3)
        #expect(history.load().isEmpty)
        for line in ["one", "two", "three", "four", "five"] { history.append(line) }
        #expect(history.load() == ["three", "four", "five"])
        #expect(try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").count == 5)
        history.append("six")
        // Twice the limit: the file is cut back to the last three lines.
        #expect(history.load() == ["four", "five", "six"])
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "four\nfive\nsix\n")
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int == 0o600)
    }
}

/// The test's own terminal model, checked on what libedit sends.
struct TerminalScreenTests {
    @Test func drawsWhatATerminalWould() {
        var screen = TerminalScreen(rows: 3, columns: 10)
        screen.feed(Array("abc\r\n> typed\u{1B}[3Dxy\u{1B}[K".utf8))
        #expect(screen.text == ["abc", "> tyxy", ""])
        #expect(screen.cursorLine == "> tyxy" && screen.column == 6)
        screen.feed(Array("\r\u{1B}[Kout\r\n\r\n\r\n> ty".utf8))
        #expect(screen.scrolledOff == ["abc", "out"])
        #expect(screen.transcript == ["abc", "out", "> ty"])
        screen.feed(Array("\u{08}\u{08}\u{1B}[P".utf8))
        #expect(screen.cursorLine == "> y")
        screen.feed(Array("é".utf8))
        #expect(screen.cursorLine == "> é")
    }
}
