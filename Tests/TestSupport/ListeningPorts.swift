import Foundation

/// Whether a TCP socket on this machine listens on `port` (any address), as the kernel's
/// socket tables say: how a test knows a `tcp-server:` end is ready without connecting to
/// it (connecting would be the very peer the server waits for).
public func isListening(port: UInt16) -> Bool {
    var hex = String(port, radix: 16, uppercase: true)
    while hex.count < 4 { hex = "0" + hex }
    let suffix = ":" + hex
    return ["/proc/net/tcp", "/proc/net/tcp6"].contains { table in
        guard let text = try? String(contentsOfFile: table, encoding: .utf8) else { return false }
        return text.split(separator: "\n").dropFirst().contains { row in
            let columns = row.split(separator: " ")
            return columns.count > 3 && columns[1].hasSuffix(suffix) && columns[3] == "0A"
        }
    }
}
