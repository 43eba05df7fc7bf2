import SwiftATTCore

// Several PDUs share a layout and differ only in opcode. Each shape's parser and encoder
// is written once here; the PDU types adopt the shape and keep their own names and docs.
// The parsers are always inlined: left to itself the optimiser shared one out-of-line
// copy per shape between the PDUs, so `ATTPDU(parsing:)` paid a call and copied the
// result through memory (a Handle Value Notification's decode took 40 instructions, a
// fifth, more).

/// A PDU that is only an opcode (Write Response, Execute Write Response, Handle Value
/// Confirmation).
public protocol ATTOpcodeOnlyPDU: ATTPDUCodable {
    init()
}

extension ATTOpcodeOnlyPDU {
    @inlinable @inline(__always)
    public init(parsing pdu: borrowing ArraySlice<UInt8>) throws(ATTDecodingError) {
        try ATTWire.check(pdu, is: Self.opcode, length: 1)
        self.init()
    }

    public var encodedLength: Int { 1 }

    public func encode(into writer: inout ByteWriter) {
        writer.write(Self.opcode.rawValue)
    }
}

/// A PDU that is an opcode and one attribute handle (Read Request).
public protocol ATTHandlePDU: ATTPDUCodable {
    var handle: UInt16 { get }
    init(handle: UInt16)
}

extension ATTHandlePDU {
    @inlinable @inline(__always)
    public init(parsing pdu: borrowing ArraySlice<UInt8>) throws(ATTDecodingError) {
        try ATTWire.check(pdu, is: Self.opcode, length: 3)
        self.init(handle: pdu.littleEndianUInt16(at: 1))
    }

    public var encodedLength: Int { 3 }

    public func encode(into writer: inout ByteWriter) {
        writer.write(Self.opcode.rawValue)
        writer.write(handle)
    }
}

/// A PDU that is an opcode and an attribute value of at most 512 octets (Read Response,
/// Read Blob Response).
public protocol ATTValuePDU: ATTPDUCodable {
    var value: ArraySlice<UInt8> { get }
    init(value: ArraySlice<UInt8>)
}

extension ATTValuePDU {
    @inlinable @inline(__always)
    public init(parsing pdu: borrowing ArraySlice<UInt8>) throws(ATTDecodingError) {
        try ATTWire.check(pdu, is: Self.opcode, atLeast: 1)
        let value = pdu.bytes(from: 1)
        try ATTWire.checkValue(value, of: Self.opcode)
        self.init(value: value)
    }

    public var encodedLength: Int { 1 + value.count }

    public func encode(into writer: inout ByteWriter) {
        writer.write(Self.opcode.rawValue)
        writer.write(value)
    }
}

/// A PDU that is an opcode, a handle and a value of at most 512 octets (Write Request,
/// Write Command, Handle Value Notification and Indication).
public protocol ATTHandleValuePDU: ATTPDUCodable {
    var handle: UInt16 { get }
    var value: ArraySlice<UInt8> { get }
    init(handle: UInt16, value: ArraySlice<UInt8>)
}

extension ATTHandleValuePDU {
    @inlinable @inline(__always)
    public init(parsing pdu: borrowing ArraySlice<UInt8>) throws(ATTDecodingError) {
        let handle = try Self.handle(in: pdu)
        self.init(handle: handle, value: pdu.bytes(from: 3))
    }

    /// The handle of a PDU of this kind, checked as `init(parsing:)` checks it (the value
    /// is `pdu.dropFirst(3)`), without slicing out the value: for a receiver that copies
    /// the value out itself, as a host does with a stream of notifications.
    @inlinable @inline(__always)
    public static func handle(in pdu: borrowing ArraySlice<UInt8>) throws(ATTDecodingError) -> UInt16 {
        try ATTWire.check(pdu, is: Self.opcode, atLeast: 3)
        try ATTWire.checkValueLength(pdu.count - 3, of: Self.opcode)
        return pdu.littleEndianUInt16(at: 1)
    }

    public var encodedLength: Int { 3 + value.count }

    public func encode(into writer: inout ByteWriter) {
        writer.write(Self.opcode.rawValue)
        writer.write(handle)
        writer.write(value)
    }
}

/// A PDU that is an opcode, a handle, a value offset and part of a value (Prepare Write
/// Request and its echoing Response).
public protocol ATTPreparedValuePDU: ATTPDUCodable {
    var handle: UInt16 { get }
    var valueOffset: UInt16 { get }
    var partAttributeValue: ArraySlice<UInt8> { get }
    init(handle: UInt16, valueOffset: UInt16, partAttributeValue: ArraySlice<UInt8>)
}

extension ATTPreparedValuePDU {
    @inlinable @inline(__always)
    public init(parsing pdu: borrowing ArraySlice<UInt8>) throws(ATTDecodingError) {
        try ATTWire.check(pdu, is: Self.opcode, atLeast: 5)
        let part = pdu.bytes(from: 5)
        try ATTWire.checkValue(part, of: Self.opcode)
        self.init(handle: pdu.littleEndianUInt16(at: 1), valueOffset: pdu.littleEndianUInt16(at: 3), partAttributeValue: part)
    }

    public var encodedLength: Int { 5 + partAttributeValue.count }

    public func encode(into writer: inout ByteWriter) {
        writer.write(Self.opcode.rawValue)
        writer.write(handle)
        writer.write(valueOffset)
        writer.write(partAttributeValue)
    }
}

/// A request that is an opcode and two or more handles (Read Multiple, Read Multiple
/// Variable).
public protocol ATTHandleListPDU: ATTPDUCodable {
    var setOfHandles: ATTHandleList { get }
    init(setOfHandles: ATTHandleList)
}

extension ATTHandleListPDU {
    @inlinable @inline(__always)
    public init(parsing pdu: borrowing ArraySlice<UInt8>) throws(ATTDecodingError) {
        try ATTWire.check(pdu, is: Self.opcode, atLeast: 1)
        self.init(setOfHandles: try ATTHandleList.parse(pdu.bytes(from: 1), of: Self.opcode))
    }

    public var encodedLength: Int { 1 + setOfHandles.bytes.count }

    public func encode(into writer: inout ByteWriter) {
        writer.write(Self.opcode.rawValue)
        writer.write(setOfHandles.bytes)
    }
}
