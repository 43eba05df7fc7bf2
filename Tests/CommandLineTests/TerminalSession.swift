#if canImport(Glibc)
import Glibc
#endif
import Foundation
import PseudoTerminal
import Testing

/// `swift-att` run on a pseudo-terminal that is its controlling terminal, as a user runs
/// it: keys typed in (Ctrl-C among them, which the terminal turns into SIGINT), and the
/// screen they see read back through `TerminalScreen`.
final class TerminalSession {
    let master: Int32
    let pid: pid_t
    private(set) var screen: TerminalScreen
    private(set) var exitStatus: Int32?

    /// Starts `swift-att arguments…` with `TERM=vt100`, its state and data (history,
    /// bonds) in `home`, and `environment` on top.
    init(_ arguments: [String], home: String, rows: Int = 40, columns: Int = 120, environment extra: [String: String] = [:]) throws {
        guard let binary = SwiftATTProcess.binary else {
            throw SwiftATTProcess.BinaryNotFound(searched: SwiftATTProcess.candidates.map(\.path))
        }
        var environment = SwiftATTProcess.environment(dataHome: home + "/data", extra)
        environment["TERM"] = "vt100"
        environment["XDG_STATE_HOME"] = home + "/state"
        let argv = [binary.path] + arguments
        let envp = environment.map { "\($0.key)=\($0.value)" }
        var child: Int32 = 0
        let fd = try Self.withCStrings(argv) { argv in
            try Self.withCStrings(envp) { envp in
                let fd = pseudo_terminal_spawn(binary.path, argv, envp, UInt16(rows), UInt16(columns), &child)
                guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
                return fd
            }
        }
        master = fd
        pid = child
        _ = fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK)
        screen = TerminalScreen(rows: rows, columns: columns)
    }

    deinit {
        if exitStatus == nil {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }
        close(master)
    }

    /// Types `keys` (Ctrl-C is "\u{03}", Ctrl-D "\u{04}", Tab "\t", Enter "\r", the Up
    /// arrow "\u{1B}[A").
    func type(_ keys: String) {
        let bytes = Array(keys.utf8)
        _ = bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
    }

    /// Reads what the program prints until `condition` holds for the screen; fails
    /// (showing the screen) after `timeout`.
    @discardableResult
    func waitFor(
        _ what: String, timeout: Duration = .seconds(20), sourceLocation: SourceLocation = #_sourceLocation,
        _ condition: (TerminalScreen) -> Bool
    ) async throws -> TerminalScreen {
        let deadline = ContinuousClock.now + timeout
        while true {
            readAvailable()
            if condition(screen) { return screen }
            if exitStatus != nil || ContinuousClock.now >= deadline {
                let why = exitStatus.map { "swift-att exited (\($0))" } ?? "timed out"
                Issue.record("\(why) waiting for \(what); the screen:\n\(screen.transcript.joined(separator: "\n"))",
                             sourceLocation: sourceLocation)
                throw TerminalTimeout()
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Waits for the program to exit; its status (128 + n for a signal).
    func exit(timeout: Duration = .seconds(10)) async throws -> Int32 {
        let deadline = ContinuousClock.now + timeout
        while exitStatus == nil, ContinuousClock.now < deadline {
            readAvailable()
            try await Task.sleep(for: .milliseconds(20))
        }
        readAvailable()
        guard let exitStatus else { throw TerminalTimeout() }
        return exitStatus
    }

    /// The terminal's settings now: whether it echoes and is line-buffered again (a
    /// program that leaves raw mode behind breaks the user's shell).
    var isCanonical: Bool {
        var settings = termios()
        tcgetattr(master, &settings)
        return settings.c_lflag & tcflag_t(ICANON) != 0 && settings.c_lflag & tcflag_t(ECHO) != 0
    }

    func readAvailable() {
        var chunk = [UInt8](repeating: 0, count: 8192)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(master, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            screen.feed(chunk[..<n])
        }
        if exitStatus == nil {
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) == pid {
                let signal = status & 0x7F
                exitStatus = signal == 0 ? (status >> 8) & 0xFF : 128 + signal
            }
        }
    }

    private static func withCStrings<R>(_ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) throws -> R) rethrows -> R {
        let pointers = strings.map { strdup($0) } + [nil]
        defer { for pointer in pointers { free(pointer) } }
        return try body(pointers)
    }

    struct TerminalTimeout: Error {}
}
