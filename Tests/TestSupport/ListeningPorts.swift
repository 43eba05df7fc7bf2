import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Whether a TCP socket on this machine listens on `port` (any address), as the kernel's
/// socket tables say: how a test knows a `tcp-server:` end is ready without connecting to
/// it (connecting would be the very peer the server waits for).
public func isListening(port: UInt16) -> Bool {
    var hex = String(port, radix: 16, uppercase: true)
    while hex.count < 4 { hex = "0" + hex }
    let suffix = ":" + hex
    return ["/proc/net/tcp", "/proc/net/tcp6"].contains { table in
        guard let text = wholeProcFile(table) else { return false }
        return text.split(separator: "\n").dropFirst().contains { row in
            let columns = row.split(separator: " ")
            return columns.count > 3 && columns[1].hasSuffix(suffix) && columns[3] == "0A"
        }
    }
}

/// All of a file under /proc, read until the end. Such files say they are empty, and
/// Foundation's `String(contentsOfFile:)` reads one page of them: the first 26 or so
/// sockets of /proc/net/tcp, which misses a listener further down in a run whose other
/// tests hold many sockets.
private func wholeProcFile(_ path: String) -> String? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 16 * 1024)
    while true {
        let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if n < 0, errno == EINTR { continue }
        guard n >= 0 else { return nil }
        if n == 0 { return String(decoding: bytes, as: UTF8.self) }
        bytes += chunk[..<n]
    }
}
