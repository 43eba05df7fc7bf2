import SwiftATTCore

// Several PDUs share a layout and differ only in opcode. Each shape's fields, parser and
// encoder are written once here; the PDU types adopt the shape and keep their own names
// and docs. The parsers are always inlined, so that each PDU type gets its own copy,
// built in place where `ATTPDU(parsing:)` puts it: a copy shared between a shape's PDUs
// would be a call away, handing its result back through memory (Documentation/
// Benchmarks.md has what that cost).

/// A PDU that is only an opcode (Write Response, Execute Write Response, Handle Value
/// Confirmation).
public protocol ATTOpcodeOnlyPDU: ATTPDUCodable, ATTBorrowedPDU where Owned == Self {
    /// The PDU, which has no fields.
    init()
}

/// Where an opcode-only PDU's fields lie: the opcode is the whole PDU.
@usableFromInline
enum ATTOpcodeOnlyPDUField {
    @inlinable static var pduLength: Int { 1 }
}

extension ATTOpcodeOnlyPDU {
    @inlinable @inline(__always)
    public init(parsing pdu: borrowing ArraySlice<UInt8>) throws(ATTDecodingError) {
        try ATTWire.check(pdu, is: Self.opcode, length: ATTOpcodeOnlyPDUField.pduLength)
        self.init()
    }

    @inlinable @inline(__always)
    public init(parsing pdu: Span<UInt8>) throws(ATTDecodingError) {
        try ATTWire.check(pdu, is: Self.opcode, length: ATTOpcodeOnlyPDUField.pduLength)
        self.init()
    }

    public var encodedLength: Int { ATTOpcodeOnlyPDUField.pduLength }

    public func encode(into writer: inout ByteWriter) {
        writer.write(Self.opcode.rawValue)
    }
}

/// A PDU that is an opcode and one attribute handle (Read Request).
public protocol ATTHandlePDU: ATTPDUCodable, ATTBorrowedPDU where Owned == Self {
    /// The attribute handle the PDU names.
    var handle: UInt16 { get }
    /// A PDU naming `handle`.
    init(handle: UInt16)
}

/// Where an `ATTHandlePDU`'s fields lie, after the opcode.
@usableFromInline
enum ATTHandlePDUField {
    @inlinable static var handle: Range<Int> { 1..<3 }
    @inlinable static var pduLength: Int { 3 }
}

extension ATTHandlePDU {
    @inlinable @inline(__always)
    public init(parsing pdu: borrowing ArraySlice<UInt8>) throws(ATTDecodingError) {
        try ATTWire.check(pdu, is: Self.opcode, length: ATTHandlePDUField.pduLength)
        self.init(handle: pdu.littleEndianUInt16(at: ATTHandlePDUField.handle))
    }

    @inlinable @inline(__always)
    public init(parsing pdu: Span<UInt8>) throws(ATTDecodingError) {
        try ATTWire.check(pdu, is: Self.opcode, length: ATTHandlePDUField.pduLength)
        self.init(handle: pdu.littleEndianUInt16(at: ATTHandlePDUField.handle))
    }

    public var encodedLength: Int { ATTHandlePDUField.pduLength }

    public func encode(into writer: inout ByteWriter) {
        writer.write(Self.opcode.rawValue)
        writer.write(handle)
    }
}

/// A PDU that is an opcode and an attribute value of at most 512 octets (Read Response,
/// Read Blob Response).
public protocol ATTValuePDU: ATTPDUCodable {
    /// The attribute value, or the part of it this PDU carries.
    var value: ArraySlice<UInt8> { get }
    /// A PDU carrying `value`, at most 512 octets.
    init(value: ArraySlice<UInt8>)
}

/// Where an `ATTValuePDU`'s fields lie, after the opcode.
@usableFromInline
enum ATTValuePDUField {
    @inlinable static var value: PartialRangeFrom<Int> { 1... }
}

extension ATTValuePDU {
    @inlinable @inline(__always)
    public init(parsing pdu: borrowing ArraySlice<UInt8>) throws(ATTDecodingError) {
        try ATTWire.check(pdu, is: Self.opcode, atLeast: ATTValuePDUField.value.lowerBound)
        let value = pdu.bytes(at: ATTValuePDUField.value)
        try ATTWire.checkValue(value, of: Self.opcode)
        self.init(value: value)
    }

    public var encodedLength: Int { ATTValuePDUField.value.lowerBound + value.count }

    public func encode(into writer: inout ByteWriter) {
        writer.write(Self.opcode.rawValue)
        writer.write(value)
    }
}

/// An `ATTValuePDU` decoded from borrowed bytes: the value is the range of them it covers.
public protocol ATTBorrowedValuePDU: ATTBorrowedPDU where Owned: ATTValuePDU {
    /// Where the value lies in the PDU.
    var value: Range<Int> { get }
    /// A borrowed PDU whose value lies at `value`.
    init(value: Range<Int>)
}

extension ATTBorrowedValuePDU {
    @inlinable @inline(__always)
    public init(parsing pdu: Span<UInt8>) throws(ATTDecodingError) {
        try ATTWire.check(pdu, is: Owned.opcode, atLeast: ATTValuePDUField.value.lowerBound)
        let value = pdu.range(of: ATTValuePDUField.value)
        try ATTWire.checkBorrowedValueLength(value.count, of: Owned.opcode)
        self.init(value: value)
    }

    @inlinable
    public func owned(in pdu: ArraySlice<UInt8>) -> Owned { Owned(value: pdu.bytes(at: value)) }
}

/// A PDU that is an opcode, a handle and a value of at most 512 octets (Write Request,
/// Write Command, Handle Value Notification and Indication).
public protocol ATTHandleValuePDU: ATTPDUCodable {
    /// The attribute handle: the characteristic value written or pushed.
    var handle: UInt16 { get }
    /// The attribute value, at most 512 octets.
    var value: ArraySlice<UInt8> { get }
    /// A PDU for `handle` carrying `value`.
    init(handle: UInt16, value: ArraySlice<UInt8>)
}

/// Where an `ATTHandleValuePDU`'s fields lie, after the opcode.
@usableFromInline
enum ATTHandleValuePDUField {
    @inlinable static var handle: Range<Int> { 1..<3 }
    @inlinable static var value: PartialRangeFrom<Int> { 3... }
}

extension ATTHandleValuePDU {
    @inlinable @inline(__always)
    public init(parsing pdu: borrowing ArraySlice<UInt8>) throws(ATTDecodingError) {
        let handle = try Self.handle(in: pdu)
        self.init(handle: handle, value: pdu.bytes(at: ATTHandleValuePDUField.value))
    }

    /// Where the value starts in a PDU of this kind: after the opcode and the handle.
    @inlinable public static var valueOffset: Int { ATTHandleValuePDUField.value.lowerBound }

    /// The handle of a PDU of this kind, checked as `init(parsing:)` checks it (the value
    /// is everything from `valueOffset` on), without slicing out the value: for a
    /// receiver that copies the value out itself, as a host does with a stream of
    /// notifications.
    @inlinable @inline(__always)
    public static func handle(in pdu: borrowing ArraySlice<UInt8>) throws(ATTDecodingError) -> UInt16 {
        let valueStart = ATTHandleValuePDUField.value.lowerBound
        try ATTWire.check(pdu, is: Self.opcode, atLeast: valueStart)
        try ATTWire.checkValueLength(pdu.count - valueStart, of: Self.opcode)
        return pdu.littleEndianUInt16(at: ATTHandleValuePDUField.handle)
    }

    public var encodedLength: Int { ATTHandleValuePDUField.value.lowerBound + value.count }

    public func encode(into writer: inout ByteWriter) {
        writer.write(Self.opcode.rawValue)
        writer.write(handle)
        writer.write(value)
    }
}

/// An `ATTHandleValuePDU` decoded from borrowed bytes: the value is the range of them it
/// covers.
public protocol ATTBorrowedHandleValuePDU: ATTBorrowedPDU where Owned: ATTHandleValuePDU {
    /// The attribute handle.
    var handle: UInt16 { get }
    /// Where the value lies in the PDU.
    var value: Range<Int> { get }
    /// A borrowed PDU for `handle` whose value lies at `value`.
    init(handle: UInt16, value: Range<Int>)
}

extension ATTBorrowedHandleValuePDU {
    @inlinable @inline(__always)
    public init(parsing pdu: Span<UInt8>) throws(ATTDecodingError) {
        let valueStart = ATTHandleValuePDUField.value.lowerBound
        try ATTWire.check(pdu, is: Owned.opcode, atLeast: valueStart)
        try ATTWire.checkBorrowedValueLength(pdu.count &- valueStart, of: Owned.opcode)
        self.init(handle: pdu.littleEndianUInt16(at: ATTHandleValuePDUField.handle), value: valueStart..<pdu.count)
    }

    @inlinable
    public func owned(in pdu: ArraySlice<UInt8>) -> Owned { Owned(handle: handle, value: pdu.bytes(at: value)) }
}

/// A PDU that is an opcode, a handle, a value offset and part of a value (Prepare Write
/// Request and its echoing Response).
public protocol ATTPreparedValuePDU: ATTPDUCodable {
    /// The attribute handle whose value is being written.
    var handle: UInt16 { get }
    /// Where in the value the part goes.
    var valueOffset: UInt16 { get }
    /// The part of the value queued, at `valueOffset`.
    var partAttributeValue: ArraySlice<UInt8> { get }
    /// A PDU queuing `partAttributeValue` at `valueOffset` of `handle`'s value.
    init(handle: UInt16, valueOffset: UInt16, partAttributeValue: ArraySlice<UInt8>)
}

/// Where an `ATTPreparedValuePDU`'s fields lie, after the opcode.
@usableFromInline
enum ATTPreparedValuePDUField {
    @inlinable static var handle: Range<Int> { 1..<3 }
    @inlinable static var valueOffset: Range<Int> { 3..<5 }
    @inlinable static var partAttributeValue: PartialRangeFrom<Int> { 5... }
}

extension ATTPreparedValuePDU {
    @inlinable @inline(__always)
    public init(parsing pdu: borrowing ArraySlice<UInt8>) throws(ATTDecodingError) {
        typealias Field = ATTPreparedValuePDUField
        try ATTWire.check(pdu, is: Self.opcode, atLeast: Field.partAttributeValue.lowerBound)
        let part = pdu.bytes(at: Field.partAttributeValue)
        try ATTWire.checkValue(part, of: Self.opcode)
        self.init(
            handle: pdu.littleEndianUInt16(at: Field.handle), valueOffset: pdu.littleEndianUInt16(at: Field.valueOffset),
            partAttributeValue: part)
    }

    public var encodedLength: Int { ATTPreparedValuePDUField.partAttributeValue.lowerBound + partAttributeValue.count }

    public func encode(into writer: inout ByteWriter) {
        writer.write(Self.opcode.rawValue)
        writer.write(handle)
        writer.write(valueOffset)
        writer.write(partAttributeValue)
    }
}

/// An `ATTPreparedValuePDU` decoded from borrowed bytes: the part value is the range of
/// them it covers.
public protocol ATTBorrowedPreparedValuePDU: ATTBorrowedPDU where Owned: ATTPreparedValuePDU {
    /// The attribute handle whose value is being written.
    var handle: UInt16 { get }
    /// Where in the value the part goes.
    var valueOffset: UInt16 { get }
    /// Where the part value lies in the PDU.
    var partAttributeValue: Range<Int> { get }
    /// A borrowed PDU whose part value lies at `partAttributeValue`.
    init(handle: UInt16, valueOffset: UInt16, partAttributeValue: Range<Int>)
}

extension ATTBorrowedPreparedValuePDU {
    @inlinable @inline(__always)
    public init(parsing pdu: Span<UInt8>) throws(ATTDecodingError) {
        typealias Field = ATTPreparedValuePDUField
        try ATTWire.check(pdu, is: Owned.opcode, atLeast: Field.partAttributeValue.lowerBound)
        let part = pdu.range(of: Field.partAttributeValue)
        try ATTWire.checkBorrowedValueLength(part.count, of: Owned.opcode)
        self.init(
            handle: pdu.littleEndianUInt16(at: Field.handle), valueOffset: pdu.littleEndianUInt16(at: Field.valueOffset),
            partAttributeValue: part)
    }

    @inlinable
    public func owned(in pdu: ArraySlice<UInt8>) -> Owned {
        Owned(handle: handle, valueOffset: valueOffset, partAttributeValue: pdu.bytes(at: partAttributeValue))
    }
}

/// A request that is an opcode and two or more handles (Read Multiple, Read Multiple
/// Variable).
public protocol ATTHandleListPDU: ATTPDUCodable {
    /// The handles to read, two or more, in the order their values are wanted.
    var setOfHandles: ATTHandleList { get }
    /// A request for the values of `setOfHandles`.
    init(setOfHandles: ATTHandleList)
}

/// Where an `ATTHandleListPDU`'s fields lie, after the opcode.
@usableFromInline
enum ATTHandleListPDUField {
    @inlinable static var setOfHandles: PartialRangeFrom<Int> { 1... }
}

extension ATTHandleListPDU {
    @inlinable @inline(__always)
    public init(parsing pdu: borrowing ArraySlice<UInt8>) throws(ATTDecodingError) {
        try ATTWire.check(pdu, is: Self.opcode, atLeast: ATTHandleListPDUField.setOfHandles.lowerBound)
        self.init(setOfHandles: try ATTHandleList.parse(pdu.bytes(at: ATTHandleListPDUField.setOfHandles), of: Self.opcode))
    }

    public var encodedLength: Int { ATTHandleListPDUField.setOfHandles.lowerBound + setOfHandles.bytes.count }

    public func encode(into writer: inout ByteWriter) {
        writer.write(Self.opcode.rawValue)
        writer.write(setOfHandles.bytes)
    }
}

/// An `ATTHandleListPDU` decoded from borrowed bytes: the handles are the range of them
/// they cover, read with `handle(at:in:)`.
public protocol ATTBorrowedHandleListPDU: ATTBorrowedPDU where Owned: ATTHandleListPDU {
    /// Where the handles lie in the PDU.
    var setOfHandles: Range<Int> { get }
    /// A borrowed request whose handles lie at `setOfHandles`.
    init(setOfHandles: Range<Int>)
}

extension ATTBorrowedHandleListPDU {
    @inlinable @inline(__always)
    public init(parsing pdu: Span<UInt8>) throws(ATTDecodingError) {
        try ATTWire.check(pdu, is: Owned.opcode, atLeast: ATTHandleListPDUField.setOfHandles.lowerBound)
        let handles = pdu.range(of: ATTHandleListPDUField.setOfHandles)
        try ATTHandleList.check(count: handles.count, of: Owned.opcode)
        self.init(setOfHandles: handles)
    }

    /// How many handles the request holds.
    @inlinable public var count: Int { setOfHandles.count / ATTHandleList.handleLength }

    /// The `index`th handle, read from the bytes this was decoded from.
    @inlinable
    public func handle(at index: Int, in pdu: Span<UInt8>) -> UInt16 {
        pdu.littleEndianUInt16(at: setOfHandles.lowerBound &+ index &* ATTHandleList.handleLength)
    }

    @inlinable
    public func owned(in pdu: ArraySlice<UInt8>) -> Owned {
        Owned(setOfHandles: ATTHandleList(unchecked: pdu.bytes(at: setOfHandles)))
    }
}

/// Read By Type Request and Read By Group Type Request (Core 5.4 Vol 3 Part F §3.4.4.1,
/// §3.4.4.9): one layout, a handle range and the type of attribute (or of group) to look
/// for, a 16- or 128-bit UUID. Its fields, parser and encoder, for the two to share.
@usableFromInline
enum ATTTypeInRangeRequest {
    @inlinable static var startingHandle: Range<Int> { 1..<3 }
    @inlinable static var endingHandle: Range<Int> { 3..<5 }
    /// A 16-bit UUID (two octets) or a 128-bit one (sixteen), to the end of the PDU.
    @inlinable static var type: PartialRangeFrom<Int> { 5... }
    /// The PDU with a 16-bit UUID.
    @inlinable static var minimumPDULength: Int { 7 }
    @inlinable @inline(__always)
    static func parse(
        _ pdu: borrowing ArraySlice<UInt8>, of opcode: ATTOpcode
    ) throws(ATTDecodingError) -> (startingHandle: UInt16, endingHandle: UInt16, type: BluetoothUUID) {
        try ATTWire.check(pdu, is: opcode, atLeast: minimumPDULength)
        return (pdu.littleEndianUInt16(at: startingHandle), pdu.littleEndianUInt16(at: endingHandle),
                try ATTWire.uuid(pdu.bytes(at: type), of: opcode))
    }

    @inlinable @inline(__always)
    static func parse(
        _ pdu: Span<UInt8>, of opcode: ATTOpcode
    ) throws(ATTDecodingError) -> (startingHandle: UInt16, endingHandle: UInt16, type: BluetoothUUID) {
        try ATTWire.check(pdu, is: opcode, atLeast: minimumPDULength)
        return (pdu.littleEndianUInt16(at: startingHandle), pdu.littleEndianUInt16(at: endingHandle),
                try ATTWire.uuid(pdu, at: type, of: opcode))
    }

    static func encodedLength(type uuid: BluetoothUUID) -> Int { type.lowerBound + uuid.encodedLength }

    static func encode(
        _ opcode: ATTOpcode, _ start: UInt16, _ end: UInt16, _ uuid: BluetoothUUID, into writer: inout ByteWriter
    ) {
        writer.write(opcode.rawValue)
        writer.write(start)
        writer.write(end)
        uuid.encode(into: &writer)
    }
}
