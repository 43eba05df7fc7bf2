#if canImport(Glibc)
import Glibc
#endif
import SwiftATTHCI

/// Writes every packet of a session to a btsnoop file that Wireshark, tshark and
/// `swift-att dump` open (`--btsnoop FILE`).
///
/// Each record is written as it happens, so a capture survives a crash up to the last
/// packet. Timestamps are wall-clock microseconds, as the format expects.
public final class BTSnoopFileWriter {
    /// The capture file being written.
    public let path: String
    private var fd: Int32
    private var encoder = BTSnoop.Writer()
    private var written = 0

    /// Creates (or truncates) `path` and writes the btsnoop header.
    public init(path: String) throws(TransportError) {
        self.path = path
        fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .systemCall("open \(path)", .current, context: "btsnoop capture") }
        try flush()
    }

    deinit { close() }

    /// Appends one packet; `outbound` is host → controller.
    public func record(_ packet: HCIPacket, outbound: Bool) {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let micros = Int64(now.tv_sec) * 1_000_000 + Int64(now.tv_nsec) / 1000
        encoder.append(packet.type, packet.bytes, direction: outbound ? .sent : .received, timestamp: micros)
        try? flush()
    }

    private func flush() throws(TransportError) {
        let bytes = encoder.bytes
        guard written < bytes.count else { return }
        let pending = Array(bytes[written...])
        try FileDescriptor.writeAll(fd, pending, timeout: .seconds(5), context: "btsnoop capture \(path)")
        written = bytes.count
        // Keep memory flat on long sessions: drop what is already on disk.
        if written > 1 << 20 { encoder.discardWritten(); written = encoder.bytes.count }
    }

    /// Closes the file at the end of the session; every record is already on disk.
    public func close() {
        if fd >= 0 { _ = Glibc.close(fd); fd = -1 }
    }
}
