import SwiftATTCore

/// A response that is an opcode, perhaps one octet stating how long its entries are, and
/// a list of entries of that length: Find Information Response (Core 5.4 Vol 3 Part F
/// §3.4.3.2), Find By Type Value Response (§3.4.3.4), Read By Type Response (§3.4.4.2)
/// and Read By Group Type Response (§3.4.4.10).
///
/// The layout, its checks and its errors are written once here; a PDU type says what its
/// entry is (`Entry`, with its fields named) and how the PDU states its length
/// (`entryLengthField`), and gives the list its name from the spec.
public protocol ATTEntryListPDU: ATTPDUCodable {
    /// What one entry of the list is, with its fields named as the spec names them.
    associatedtype Entry: ATTListEntry
    /// How the PDU states its entries' length.
    static var entryLengthField: ATTEntryLengthField { get }
    /// The entries, decoded on access.
    var entryList: ATTEntryList<Entry> { get }
    /// A PDU carrying `entryList`. A list is whole entries of one length, as parsing or
    /// building (`init(_:)`) made it.
    init(entryList: ATTEntryList<Entry>)
    /// A PDU of `entries`, which must all have one length that the PDU can state.
    init(_ entries: [Entry]) throws(ATTDecodingError)
}

/// How a list response states its entries' length, in the octet after the opcode.
public enum ATTEntryLengthField: Sendable, Hashable {
    /// No such octet: every entry is `entryLength` octets (Find By Type Value Response).
    case absent(entryLength: Int)
    /// A Length octet: the entry length itself, from `minimum` (the entry's fixed fields)
    /// to 255 (Read By Type Response, Read By Group Type Response).
    case length(minimum: Int)
    /// A Format octet: 0x01 for entries of `uuid16` octets (16-bit UUIDs), 0x02 for
    /// `uuid128` octets (128-bit UUIDs) (Find Information Response).
    case format(uuid16: Int, uuid128: Int)

    /// The Length or Format octet, when there is one (the opcode is octet 0).
    @inlinable static var lengthOrFormat: Int { 1 }
    /// Where the entries start: right after the opcode, or after the Length or Format
    /// octet when there is one.
    @inlinable
    var entries: PartialRangeFrom<Int> {
        if case .absent = self { return Self.lengthOrFormat... }
        return (Self.lengthOrFormat + 1)...
    }

    /// The longest entry a one-octet Length can state.
    @inlinable static var maximumStatedLength: Int { 255 }
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
        self.init(entryList: try .parse(pdu.bytes(at: field.entries), entryLength: entryLength, of: Self.opcode))
    }

    /// A PDU of `entries`, which must all have one length; a Length octet must be able
    /// to state it. (Find Information Response checks its UUIDs' width first.)
    public init(_ entries: [Entry]) throws(ATTDecodingError) {
        if case let .length(minimum) = Self.entryLengthField,
           let long = entries.first(where: { $0.encodedLength > ATTEntryLengthField.maximumStatedLength }) {
            throw .invalidEntryLength(Self.opcode, length: long.encodedLength, allowed: minimum...ATTEntryLengthField.maximumStatedLength)
        }
        self.init(entryList: try .build(entries, of: Self.opcode))
    }

    public var encodedLength: Int { Self.entryLengthField.entries.lowerBound + entryList.bytes.count }

    public func encode(into writer: inout ByteWriter) {
        writer.write(Self.opcode.rawValue)
        switch Self.entryLengthField {
        case .absent: break
        case .length: writer.write(UInt8(truncatingIfNeeded: entryList.entryLength))
        case let .format(uuid16, _): writer.write(entryList.entryLength == uuid16 ? 0x01 as UInt8 : 0x02)
        }
        writer.write(entryList.bytes)
    }
}

/// An `ATTEntryListPDU` decoded from borrowed bytes: the entries are the range of them
/// they cover, `entryLength` octets each. `entry(at:)` says where one entry lies; each
/// PDU's `Borrowed` type reads an entry's fields from there.
public protocol ATTBorrowedEntryListPDU: ATTBorrowedPDU where Owned: ATTEntryListPDU {
    /// The entries' octets in the PDU, a whole, non-zero number of entries.
    var entries: Range<Int> { get }
    /// Octets per entry.
    var entryLength: Int { get }
    /// Borrowed entries: `entries` in the PDU, `entryLength` octets each.
    init(entries: Range<Int>, entryLength: Int)
}

extension ATTBorrowedEntryListPDU {
    /// The same checks as the slice decoder's (`ATTEntryListPDU.init(parsing:)`), in the
    /// same order, so both throw the same error for the same bytes. The list is checked
    /// in each branch rather than after them, so that a Format octet's entry length
    /// reaches the check as a constant: its remainder is a multiplication, not a
    /// division.
    @inlinable @inline(__always)
    public init(parsing pdu: Span<UInt8>) throws(ATTDecodingError) {
        let field = Owned.entryLengthField
        let opcode = Owned.opcode
        try ATTWire.check(pdu, is: opcode, atLeast: field.entries.lowerBound)
        switch field {
        case let .absent(length):
            self.init(entries: try Self.entries(of: pdu, from: field.entries, entryLength: length), entryLength: length)
        case let .length(minimum):
            let length = Int(pdu.byte(at: ATTEntryLengthField.lengthOrFormat))
            guard _fastPath(length >= minimum) else {
                throw .invalidEntryLength(opcode, length: length, allowed: minimum...ATTEntryLengthField.maximumStatedLength)
            }
            self.init(entries: try Self.entries(of: pdu, from: field.entries, entryLength: length), entryLength: length)
        case let .format(uuid16, uuid128):
            let format = pdu.byte(at: ATTEntryLengthField.lengthOrFormat)
            switch format {
            case 0x01:
                self.init(entries: try Self.entries(of: pdu, from: field.entries, entryLength: uuid16), entryLength: uuid16)
            case 0x02:
                self.init(entries: try Self.entries(of: pdu, from: field.entries, entryLength: uuid128), entryLength: uuid128)
            default: throw .invalidFormat(format)
            }
        }
    }

    /// The entries from `field.lowerBound` to the end of `pdu`: a whole, non-zero number.
    @inlinable @inline(__always)
    static func entries(of pdu: Span<UInt8>, from field: PartialRangeFrom<Int>, entryLength: Int) throws(ATTDecodingError) -> Range<Int> {
        let entries = pdu.range(of: field)
        guard _fastPath(!entries.isEmpty) else { throw .tooFewEntries(Owned.opcode, count: 0, minimum: 1) }
        guard _fastPath(entries.count % entryLength == 0) else {
            throw .lengthNotMultiple(Owned.opcode, dataLength: entries.count, entryLength: entryLength)
        }
        return entries
    }

    /// How many entries the list holds.
    @inlinable public var count: Int { entries.count / entryLength }

    /// Where the `index`th entry lies in the PDU.
    @inlinable
    public func entry(at index: Int) -> Range<Int> {
        let start = entries.lowerBound &+ index &* entryLength
        return start..<(start &+ entryLength)
    }

    @inlinable
    public func owned(in pdu: ArraySlice<UInt8>) -> Owned {
        Owned(entryList: ATTEntryList(unchecked: pdu.bytes(at: entries), entryLength: entryLength))
    }
}

/// Read By Type Response and Read By Group Type Response: a Length octet and an Attribute
/// Data List (Core 5.4 Vol 3 Part F §3.4.4.2, §3.4.4.10). The two name their parts alike
/// and differ only in their entry, so the names are given here once.
public protocol ATTAttributeDataListPDU: ATTEntryListPDU where Entry == AttributeData {
    /// The entry of the Attribute Data List.
    associatedtype AttributeData: ATTAttributeDataEntry
}

/// An entry of an Attribute Data List: one or two handles, then an attribute value that
/// runs to the end of the entry.
public protocol ATTAttributeDataEntry: ATTListEntry {
    /// Octets before the value: the shortest entry, whose value is empty.
    static var valueOffset: Int { get }
    /// The attribute value, or its first octets when the server cut it to fit the MTU.
    var value: ArraySlice<UInt8> { get }
}

extension ATTAttributeDataEntry {
    public var encodedLength: Int { Self.valueOffset + value.count }
}

extension ATTAttributeDataListPDU {
    /// Each entry is at least its handles long (an empty value); the Length octet says how
    /// much longer.
    @inlinable
    public static var entryLengthField: ATTEntryLengthField { .length(minimum: AttributeData.valueOffset) }

    /// The entries, decoded on access.
    @inlinable public var attributeDataList: ATTEntryList<AttributeData> { entryList }
    /// Each entry's octets (the Length field): its fixed fields plus the value's length.
    @inlinable public var length: Int { entryList.entryLength }
    /// The entries' bytes.
    @inlinable public var attributeDataBytes: ArraySlice<UInt8> { entryList.bytes }
}
