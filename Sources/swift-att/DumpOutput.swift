#if canImport(Glibc)
import Glibc
#endif
import SwiftATTJSON

/// `dump`'s standard output: lines gathered in a buffer written in large blocks. JSON
/// is written straight into it as bytes, with the same text `JSONValue.serialized()`
/// gives (compact, keys in order, RFC 8259 escapes), without building a `String` per
/// record: on a large capture that string building was most of `dump --json`'s time.
struct DumpOutput {
    private var buffer: [UInt8] = []
    private static let blockSize = 64 * 1024

    init() { buffer.reserveCapacity(Self.blockSize + 4096) }

    mutating func write(_ line: String) {
        var line = line
        line.withUTF8 { buffer.append(contentsOf: $0) }
        endLine()
    }

    mutating func write(_ value: JSONValue) {
        append(value)
        endLine()
    }

    private mutating func endLine() {
        buffer.append(UInt8(ascii: "\n"))
        if buffer.count >= Self.blockSize { flush() }
    }

    mutating func flush() {
        Output.flush()
        var offset = 0
        while offset < buffer.count {
            let n = buffer.withUnsafeBytes { Glibc.write(STDOUT_FILENO, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            offset += n
        }
        buffer.removeAll(keepingCapacity: true)
    }

    private mutating func append(_ value: JSONValue) {
        switch value {
        case .null: append(ascii: "null")
        case let .bool(b): append(ascii: b ? "true" : "false")
        case let .integer(i): append(i)
        case let .double(d): d.isFinite ? append(ascii: d.description) : append(ascii: "null")
        case let .string(s): append(string: s)
        case let .array(elements):
            buffer.append(UInt8(ascii: "["))
            for (i, e) in elements.enumerated() {
                if i > 0 { buffer.append(UInt8(ascii: ",")) }
                append(e)
            }
            buffer.append(UInt8(ascii: "]"))
        case let .object(members):
            buffer.append(UInt8(ascii: "{"))
            for (i, m) in members.enumerated() {
                if i > 0 { buffer.append(UInt8(ascii: ",")) }
                append(string: m.key)
                buffer.append(UInt8(ascii: ":"))
                append(m.value)
            }
            buffer.append(UInt8(ascii: "}"))
        }
    }

    private mutating func append(ascii text: String) {
        var text = text
        text.withUTF8 { buffer.append(contentsOf: $0) }
    }

    private mutating func append(_ value: Int) {
        if value < 0 {
            buffer.append(UInt8(ascii: "-"))
            append(magnitude: value.magnitude)
        } else {
            append(magnitude: UInt(value))
        }
    }

    private mutating func append(magnitude value: UInt) {
        if value < 10 {
            buffer.append(UInt8(ascii: "0") + UInt8(value))
            return
        }
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 octets: room for 20 digits
        var count = 0
        var v = value
        withUnsafeMutableBytes(of: &digits) { d in
            while v > 0 {
                d[23 - count] = UInt8(ascii: "0") + UInt8(v % 10)
                v /= 10
                count += 1
            }
            buffer.append(contentsOf: d[(24 - count)...])
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    private mutating func append(string: String) {
        var string = string
        buffer.append(UInt8(ascii: "\""))
        string.withUTF8 { bytes in
            var runStart = 0
            for (i, b) in bytes.enumerated() where b < 0x20 || b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") {
                buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<i]))
                runStart = i + 1
                switch b {
                case UInt8(ascii: "\""): append(ascii: "\\\"")
                case UInt8(ascii: "\\"): append(ascii: "\\\\")
                case 0x0A: append(ascii: "\\n")
                case 0x0D: append(ascii: "\\r")
                case 0x09: append(ascii: "\\t")
                case 0x08: append(ascii: "\\b")
                case 0x0C: append(ascii: "\\f")
                default:
                    append(ascii: "\\u00")
                    buffer.append(Self.hexDigits[Int(b >> 4)])
                    buffer.append(Self.hexDigits[Int(b & 0xF)])
                }
            }
            buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...]))
        }
        buffer.append(UInt8(ascii: "\""))
    }
}
