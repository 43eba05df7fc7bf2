import Synchronization

/// What Tab offers in `central shell`: the commands, then for each command what its next
/// word can be — a device for `connect` (the addresses and names the shell has seen), a
/// characteristic for `read`, `write`, `subscribe`… (the connected database's UUIDs and
/// names). A value, kept by the shell and read by the line editor's thread.
struct ShellCompletion: Sendable {
    static let commands = ["connect", "disconnect", "discover", "help", "mtu", "pair", "quit", "read", "scan",
                           "subscribe", "unsubscribe", "write", "write-cmd", "write-text"]
    /// Commands whose next word is a characteristic.
    static let characteristicCommands: Set = ["read", "write", "write-cmd", "write-text", "subscribe", "unsubscribe"]

    /// The connected database's characteristics: UUIDs and names.
    var characteristics: [String] = []
    /// Devices seen while scanning or connected to: addresses, and names without spaces.
    var devices: [String] = []

    /// The words that can replace the one starting at UTF-8 offset `wordStart` of `line`
    /// (what has been typed of it is their prefix, in any case), sorted.
    func candidates(line: String, wordStart: Int) -> [String] {
        let bytes = Array(line.utf8)
        let start = min(max(wordStart, 0), bytes.count)
        let before = String(decoding: bytes[..<start], as: UTF8.self).split(separator: " ").map(String.init)
        let word = String(decoding: bytes[start...].prefix { $0 != 0x20 }, as: UTF8.self).lowercased()
        let offered: [String]
        switch (before.first, before.count) {
        case (nil, _): offered = Self.commands
        case ("help", 1): offered = Self.commands
        case ("connect", 1): offered = devices
        case let (command?, 1) where Self.characteristicCommands.contains(command): offered = characteristics
        default: offered = []
        }
        return Array(Set(offered.filter { $0.lowercased().hasPrefix(word) })).sorted()
    }

    /// The longest prefix all of `words` share (what Tab fills in when there are several).
    static func commonPrefix(_ words: [String]) -> String {
        guard var prefix = words.first else { return "" }
        for word in words.dropFirst() {
            while !word.hasPrefix(prefix) { prefix.removeLast() }
        }
        return prefix
    }
}

/// The shell's `ShellCompletion`, shared with the line editor's thread.
final class SharedCompletion: Sendable {
    private let state = Mutex(ShellCompletion())

    func update(_ body: (inout ShellCompletion) -> Void) {
        state.withLock { body(&$0) }
    }

    func candidates(line: String, wordStart: Int) -> [String] {
        state.withLock { $0.candidates(line: line, wordStart: wordStart) }
    }
}
