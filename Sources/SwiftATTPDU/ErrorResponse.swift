import SwiftATTCore

/// ATT_ERROR_RSP: a request failed. Core 5.4 Vol 3 Part F §3.4.1.1.
public struct ErrorResponse: ATTPDUCodable, ATTBorrowedPDU {
    @inlinable public static var opcode: ATTOpcode { .errorResponse }
    /// The opcode of the request that failed.
    public var requestOpcode: ATTOpcode
    /// The handle the failure concerns, or 0x0000 when none does.
    public var handle: UInt16
    /// Why the request failed.
    public var errorCode: ATTErrorCode

    /// An answer to the request of `requestOpcode` that failed at `handle` with `errorCode`.
    public init(requestOpcode: ATTOpcode, handle: UInt16, errorCode: ATTErrorCode) {
        self.requestOpcode = requestOpcode
        self.handle = handle
        self.errorCode = errorCode
    }

    @usableFromInline
    enum Field {
        @inlinable static var requestOpcodeInError: Int { 1 }
        @inlinable static var attributeHandleInError: Range<Int> { 2..<4 }
        @inlinable static var errorCode: Int { 4 }
        @inlinable static var pduLength: Int { 5 }
    }

    @inlinable
    public init(parsing pdu: borrowing ArraySlice<UInt8>) throws(ATTDecodingError) {
        try ATTWire.check(pdu, is: Self.opcode, length: Field.pduLength)
        requestOpcode = ATTOpcode(pdu.byte(at: Field.requestOpcodeInError))
        handle = pdu.littleEndianUInt16(at: Field.attributeHandleInError)
        errorCode = ATTErrorCode(pdu.byte(at: Field.errorCode))
    }

    /// Parses one whole PDU from borrowed bytes (`ATTBorrowedPDU`): it has no byte fields,
    /// so it decodes to itself.
    @inlinable @inline(__always)
    public init(parsing pdu: Span<UInt8>) throws(ATTDecodingError) {
        try ATTWire.check(pdu, is: Self.opcode, length: Field.pduLength)
        requestOpcode = ATTOpcode(pdu.byte(at: Field.requestOpcodeInError))
        handle = pdu.littleEndianUInt16(at: Field.attributeHandleInError)
        errorCode = ATTErrorCode(pdu.byte(at: Field.errorCode))
    }

    public var encodedLength: Int { Field.pduLength }

    public func encode(into writer: inout ByteWriter) {
        writer.write(Self.opcode.rawValue)
        writer.write(requestOpcode.rawValue)
        writer.write(handle)
        writer.write(errorCode.rawValue)
    }
}
