import SwiftATTPDU

/// The floor for decoding each PDU of the mix: the least code that validates what the
/// codec validates and reads the same fields, written by hand for one known PDU type
/// from raw bytes (no dispatch on the opcode, no error values, no bounds checks after
/// the one length check). The borrowed decode's time over this one's says what the
/// codec's generality costs (issue 22: at most 3×).
///
/// Each result is a few integers, as the borrowed decode's is, and goes through the
/// benchmark's blackhole so that the reads are not optimised away.
enum ZeroCopyFloor {
    /// A handle and where a value lies: Handle Value Notification, Write Request.
    struct HandleValue { var handle: UInt16; var value: Range<Int> }
    /// An entry length and where the entries lie: the list responses.
    struct EntryList { var entryLength: Int; var entries: Range<Int> }
    /// Error Response's fields.
    struct Error { var requestOpcode: UInt8; var handle: UInt16; var errorCode: UInt8 }

    @inline(__always)
    static func u16(_ p: UnsafeRawBufferPointer, _ offset: Int) -> UInt16 {
        UInt16(littleEndian: p.loadUnaligned(fromByteOffset: offset, as: UInt16.self))
    }

    /// Opcode, handle, then a value of at most 512 octets.
    @inline(__always)
    static func handleValue(_ pdu: Span<UInt8>, opcode: UInt8) -> HandleValue? {
        pdu.withUnsafeBytes { p in
            guard p.count >= 3, p.count - 3 <= 512, p[0] == opcode else { return nil }
            return HandleValue(handle: u16(p, 1), value: 3..<p.count)
        }
    }

    /// Opcode, a Length octet of at least `minimum`, then a whole, non-zero number of entries.
    @inline(__always)
    static func lengthList(_ pdu: Span<UInt8>, opcode: UInt8, minimum: Int) -> EntryList? {
        pdu.withUnsafeBytes { p in
            guard p.count > 2, p[0] == opcode else { return nil }
            let length = Int(p[1])
            guard length >= minimum, (p.count - 2) % length == 0 else { return nil }
            return EntryList(entryLength: length, entries: 2..<p.count)
        }
    }

    /// Find Information Response: a Format octet (4- or 18-octet entries), then entries.
    @inline(__always)
    static func formatList(_ pdu: Span<UInt8>) -> EntryList? {
        pdu.withUnsafeBytes { p in
            guard p.count > 2, p[0] == 0x05 else { return nil }
            let length: Int
            switch p[1] {
            case 0x01: length = 4
            case 0x02: length = 18
            default: return nil
            }
            guard (p.count - 2) % length == 0 else { return nil }
            return EntryList(entryLength: length, entries: 2..<p.count)
        }
    }

    @inline(__always)
    static func errorResponse(_ pdu: Span<UInt8>) -> Error? {
        pdu.withUnsafeBytes { p in
            guard p.count == 5, p[0] == 0x01 else { return nil }
            return Error(requestOpcode: p[1], handle: u16(p, 2), errorCode: p[4])
        }
    }

    @inline(__always)
    static func exchangeMTU(_ pdu: Span<UInt8>) -> UInt16? {
        pdu.withUnsafeBytes { p in
            guard p.count == 3, p[0] == 0x02 else { return nil }
            return u16(p, 1)
        }
    }

    /// Times the floor for the PDU `bytes` is (by its opcode) and the borrowed decode of
    /// the same bytes, in turns (`MeasuredPair`: first the floor, second the decode), both
    /// reading `bytes` through one span from closures of this function.
    static func measureWithBorrowed(_ bytes: [UInt8], iterations: Int, rounds: Int) -> MeasuredPair {
        let span = bytes.span
        switch bytes[0] {
        case 0x1B, 0x12:
            let opcode = bytes[0]
            return MeasuredPair.run(iterations: iterations, rounds: rounds, { blackhole(handleValue(span, opcode: opcode)) }) { blackhole(try? ATTPDU.Borrowed(parsing: span)) }
        case 0x11:
            return MeasuredPair.run(iterations: iterations, rounds: rounds, { blackhole(lengthList(span, opcode: 0x11, minimum: 4)) }) { blackhole(try? ATTPDU.Borrowed(parsing: span)) }
        case 0x09:
            return MeasuredPair.run(iterations: iterations, rounds: rounds, { blackhole(lengthList(span, opcode: 0x09, minimum: 2)) }) { blackhole(try? ATTPDU.Borrowed(parsing: span)) }
        case 0x05:
            return MeasuredPair.run(iterations: iterations, rounds: rounds, { blackhole(formatList(span)) }) { blackhole(try? ATTPDU.Borrowed(parsing: span)) }
        case 0x01:
            return MeasuredPair.run(iterations: iterations, rounds: rounds, { blackhole(errorResponse(span)) }) { blackhole(try? ATTPDU.Borrowed(parsing: span)) }
        case 0x02:
            return MeasuredPair.run(iterations: iterations, rounds: rounds, { blackhole(exchangeMTU(span)) }) { blackhole(try? ATTPDU.Borrowed(parsing: span)) }
        default:
            fatalError("no zero-copy floor for opcode 0x\(String(bytes[0], radix: 16)): add one for the new PDU of the mix")
        }
    }
}
