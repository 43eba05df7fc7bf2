import SwiftATTCore

/// A response that is an opcode, perhaps one octet stating how long its entries are, and
/// a list of entries of that length: Find Information Response (Core 5.4 Vol 3 Part F
/// §3.4.3.2), Find By Type Value Response (§3.4.3.4), Read By Type Response (§3.4.4.2)
/// and Read By Group Type Response (§3.4.4.10).
///
/// The layout, its checks and its errors are written once here; a PDU type says what its
/// entry is (`Entry`, with its fields named) and how its length is stated
/// (`entryLengthField`), and keeps the spec's names for its properties. It stores the
/// list's bytes plainly rather than an `ATTEntryList<Entry>`, so a decoded `ATTPDU` needs
/// no generic metadata at run time (copying or destroying one stays cheap).
@usableFromInline
protocol ATTEntryListPDU: ATTPDUCodable {
    associatedtype Entry: ATTListEntry
    /// How the PDU states its entries' length.
    static var entryLengthField: ATTEntryLengthField { get }
    /// The entries, as parsed or built.
    var list: ATTEntryList<Entry> { get }
    /// A PDU carrying `list`, which parsing or building has already checked.
    init(list: ATTEntryList<Entry>)
}

/// How a list response states its entries' length, in the octet after the opcode.
@usableFromInline
enum ATTEntryLengthField: Sendable {
    /// No such octet: every entry is `entryLength` octets (Find By Type Value Response).
    case absent(entryLength: Int)
    /// A Length octet: the entry length itself, from `minimum` (the entry's fixed fields)
    /// to 255 (Read By Type Response, Read By Group Type Response).
    case length(minimum: Int)
    /// A Format octet: 0x01 for entries of `uuid16` octets (16-bit UUIDs), 0x02 for
    /// `uuid128` octets (128-bit UUIDs) (Find Information Response).
    case format(uuid16: Int, uuid128: Int)

    /// The Length or Format octet, when there is one (the opcode is octet 0).
    @usableFromInline static let lengthOrFormat = 1

    /// Where the entries start: right after the opcode, or after the Length or Format
    /// octet when there is one.
    @inlinable
    var entries: PartialRangeFrom<Int> {
        if case .absent = self { return Self.lengthOrFormat... }
        return (Self.lengthOrFormat + 1)...
    }

    /// The longest entry a one-octet Length can state.
    @usableFromInline static let maximumStatedLength = 255
}

extension ATTEntryListPDU {
    /// Always inlined, as the other shapes' parsers are (see `ATTPDUShapes.swift`): each
    /// PDU type gets its own copy with `entryLengthField` folded to a constant.
    @inlinable @inline(__always)
    public init(parsing pdu: borrowing ArraySlice<UInt8>) throws(ATTDecodingError) {
        let field = Self.entryLengthField
        try ATTWire.check(pdu, is: Self.opcode, atLeast: field.entries.lowerBound)
        let entryLength: Int
        switch field {
        case let .absent(length):
            entryLength = length
        case let .length(minimum):
            entryLength = Int(pdu.byte(at: ATTEntryLengthField.lengthOrFormat))
            guard entryLength >= minimum else {
                throw .invalidEntryLength(Self.opcode, length: entryLength, allowed: minimum...ATTEntryLengthField.maximumStatedLength)
            }
        case let .format(uuid16, uuid128):
            let format = pdu.byte(at: ATTEntryLengthField.lengthOrFormat)
            switch format {
            case 0x01: entryLength = uuid16
            case 0x02: entryLength = uuid128
            default: throw .invalidFormat(format)
            }
        }
        self.init(list: try .parse(pdu.bytes(at: field.entries), entryLength: entryLength, of: Self.opcode))
    }

    /// The list of `entries`, which must all have one length; a Length octet must be
    /// able to state it.
    static func list(of entries: [Entry]) throws(ATTDecodingError) -> ATTEntryList<Entry> {
        if case let .length(minimum) = entryLengthField,
           let long = entries.first(where: { $0.encodedLength > ATTEntryLengthField.maximumStatedLength }) {
            throw .invalidEntryLength(opcode, length: long.encodedLength, allowed: minimum...ATTEntryLengthField.maximumStatedLength)
        }
        return try .build(entries, of: opcode)
    }

    public var encodedLength: Int { Self.entryLengthField.entries.lowerBound + list.bytes.count }

    public func encode(into writer: inout ByteWriter) {
        writer.write(Self.opcode.rawValue)
        switch Self.entryLengthField {
        case .absent: break
        case .length: writer.write(UInt8(truncatingIfNeeded: list.entryLength))
        case let .format(uuid16, _): writer.write(list.entryLength == uuid16 ? 0x01 as UInt8 : 0x02)
        }
        writer.write(list.bytes)
    }
}
