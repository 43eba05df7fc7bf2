#if canImport(Glibc)
import Glibc
#endif

/// The shell's history file: one command per line, plain text, in
/// `$XDG_STATE_HOME/swift-att/history` (`~/.local/state/swift-att/history` when the
/// variable is unset), as the XDG base directory specification places history. Mode 0600:
/// what a user typed (addresses, values written) is theirs alone.
///
/// Each line is appended as it is entered, so a shell that is killed loses nothing, and
/// two shells at once interleave rather than overwrite each other. Plain lines rather than
/// libedit's own file format, which escapes spaces and wants a cookie on its first line.
struct ShellHistory: Sendable {
    /// Where the history lives; `nil` keeps none (no home directory to put it in).
    let path: String?
    /// Lines loaded at start; the file is cut back to this many when it grows to twice it.
    let limit: Int

    init(path: String?, limit: Int = 1000) {
        self.path = path
        self.limit = limit
    }

    /// The default place for `environment` (XDG_STATE_HOME, else HOME).
    static func defaultPath(environment: [String: String]) -> String? {
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") { return state + "/swift-att/history" }
        if let home = environment["HOME"], !home.isEmpty { return home + "/.local/state/swift-att/history" }
        return nil
    }

    /// The last `limit` lines, oldest first. A file too long is cut back here (written to
    /// a temporary file and renamed over it, so a crash leaves one or the other whole).
    func load() -> [String] {
        guard let path, let text = Self.contents(of: path) else { return [] }
        let lines = text.split(separator: "\n").map(String.init)
        let kept = Array(lines.suffix(limit))
        if lines.count >= 2 * limit {
            let temporary = path + ".new"
            if Self.write(kept.map { $0 + "\n" }.joined(), to: temporary, flags: O_TRUNC), rename(temporary, path) != 0 {
                unlink(temporary)
            }
        }
        return kept
    }

    /// Adds `line` at the end of the file (made, with its directory, when missing).
    func append(_ line: String) {
        guard let path else { return }
        Self.makeDirectories(for: path)
        _ = Self.write(line.filter { $0 != "\n" } + "\n", to: path, flags: O_APPEND)
    }

    private static func contents(of path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            bytes += chunk[..<n]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func write(_ text: String, to path: String, flags: Int32) -> Bool {
        let fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | flags, 0o600)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) } == bytes.count
    }

    /// Each missing directory above `path`, mode 0700.
    private static func makeDirectories(for path: String) {
        var prefix = ""
        for component in path.split(separator: "/").dropLast() {
            prefix += "/" + component
            _ = mkdir(prefix, 0o700)
        }
    }
}
