#if canImport(Glibc)
import Glibc
#endif
import SwiftATTHCI
import SwiftATTTransport

/// A btsnoop capture read from a file a buffer at a time, so `dump` runs in the same
/// memory whatever the file's size. Records are numbered from 1, in the listing and in
/// errors alike (`btsnoop record 535 truncated`).
///
/// The file header is checked by `BTSnoop.Reader` (the same errors as an in-memory read);
/// each record's 24-octet header is then read here. Format: see `BTSnoop`.
final class DumpCaptureStream {
    /// Octets read per `read(2)`; a record longer than this grows the buffer to fit it.
    static let chunkSize = 256 * 1024

    private enum Field {
        static let originalLength = 0
        static let includedLength = 4
        static let flags = 8
        static let timestampHigh = 16
        static let timestampLow = 20
        static let recordHeaderLength = 24
        static let fileHeaderLength = 16
        static let datalink = 12
    }

    /// The longest packet HCI has (ACL: 4-octet header and 65 535 octets of data, after
    /// the H4 indicator). A longer record is corrupt; refusing it keeps memory bounded.
    static let longestPacket = 1 + 4 + 0xFFFF

    let path: String
    private let descriptor: Int32
    private var hasIndicator = true
    private var buffer: [UInt8]
    /// Unread octets are `buffer[start..<end]`.
    private var start = 0
    private var end = 0
    private var atEndOfFile = false
    /// The number of the last record returned, from 1.
    private(set) var number = 0

    /// Opens and checks the header; errors name the path and the system's reason.
    init(path: String) throws(CommandError) {
        self.path = path
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw Self.systemError("cannot open", path, Errno.current) }
        descriptor = fd
        buffer = [UInt8](repeating: 0, count: Self.chunkSize)
        try fill(atLeast: Field.fileHeaderLength)
        hasIndicator = try Self.checkedHeader(buffer[0..<min(end, Field.fileHeaderLength)], path: path)
        start = Field.fileHeaderLength
    }

    deinit { close(descriptor) }

    /// Whether packets carry an H4 indicator (datalink 1002) or not (1001).
    private static func checkedHeader(_ header: ArraySlice<UInt8>, path: String) throws(CommandError) -> Bool {
        do {
            _ = try BTSnoop.Reader(header)
        } catch {
            throw .input("\(path): \(error)")
        }
        let at = header.startIndex + Field.datalink
        let datalink = UInt32(header[at]) << 24 | UInt32(header[at + 1]) << 16 | UInt32(header[at + 2]) << 8 | UInt32(header[at + 3])
        return datalink == BTSnoop.datalinkH4
    }

    static func systemError(_ what: String, _ path: String, _ error: Errno) -> CommandError {
        .input("\(what) \(path): \(error.message) (\(error.name))")
    }

    /// The next record, `nil` at the end of the file. The record's packet is a view into
    /// the buffer, valid until the next call.
    func next() throws(CommandError) -> BTSnoop.Record? {
        try fill(atLeast: Field.recordHeaderLength)
        let available = end - start
        if available == 0 { return nil }
        let what = "btsnoop record \(number + 1)"
        guard available >= Field.recordHeaderLength else {
            throw .input(path + ": " + HCIDecodingError.truncated(what, need: Field.recordHeaderLength, have: available).description)
        }
        let original = Int(uint32(at: Field.originalLength))
        let included = Int(uint32(at: Field.includedLength))
        let flags = uint32(at: Field.flags)
        let timestamp = Int64(bitPattern: UInt64(uint32(at: Field.timestampHigh)) << 32 | UInt64(uint32(at: Field.timestampLow)))
        guard included <= Self.longestPacket else {
            throw .input("\(path): \(what): \(HCIDecodingError.invalidField("included length", value: included))"
                + " (longer than any HCI packet, \(Self.longestPacket) octets)")
        }
        let length = Field.recordHeaderLength + included
        try fill(atLeast: length)
        guard end - start >= length else {
            throw .input(path + ": " + HCIDecodingError.truncated(what, need: length, have: end - start).description)
        }
        var packet = buffer[(start + Field.recordHeaderLength)..<(start + length)]
        start += length
        number += 1
        let direction: BTSnoop.Direction = flags & 1 == 0 ? .sent : .received
        let type: HCIPacketType
        if hasIndicator {
            guard let first = packet.first else {
                throw .input(path + ": " + HCIDecodingError.truncated(what, need: 1, have: 0).description)
            }
            guard let t = HCIPacketType(rawValue: first) else {
                throw .input("\(path): \(what): \(HCIDecodingError.unknownPacketType(first))")
            }
            type = t
            packet = packet.dropFirst()
        } else {
            type = flags & 2 != 0 ? (direction == .sent ? .command : .event) : .aclData
        }
        var record = BTSnoop.Record(direction: direction, packetType: type, packet: packet,
                                    timestamp: timestamp &- BTSnoop.unixEpochOffset)
        record.originalLength = original
        return record
    }

    private func uint32(at field: Int) -> UInt32 {
        let i = start + field
        return UInt32(buffer[i]) << 24 | UInt32(buffer[i + 1]) << 16 | UInt32(buffer[i + 2]) << 8 | UInt32(buffer[i + 3])
    }

    /// Reads until `count` octets are unread or the file ends. Unread octets move to the
    /// front first; the buffer grows only for a record longer than it, and only as far
    /// as the file really has octets.
    private func fill(atLeast count: Int) throws(CommandError) {
        guard end - start < count, !atEndOfFile else { return }
        if start > 0 {
            let unread = end - start
            buffer.withUnsafeMutableBytes { b in
                guard let base = b.baseAddress else { return }
                memmove(base, base + start, unread)
            }
            start = 0
            end = unread
        }
        while end < count, !atEndOfFile {
            if end == buffer.count {
                buffer.append(contentsOf: repeatElement(0, count: min(buffer.count, count - end + Self.chunkSize)))
            }
            let n = buffer.withUnsafeMutableBytes { b in
                read(descriptor, b.baseAddress! + end, b.count - end)
            }
            if n < 0 {
                if errno == EINTR { continue }
                throw Self.systemError("cannot read", path, Errno.current)
            }
            if n == 0 { atEndOfFile = true }
            end += n
        }
    }
}
