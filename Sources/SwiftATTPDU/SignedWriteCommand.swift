import SwiftATTCore

/// ATT_SIGNED_WRITE_CMD: a write without response, authenticated by a signature made
/// with the CSRK (Core 5.4 Vol 3 Part H §2.4.5). Core 5.4 Vol 3 Part F §3.4.5.4.
public struct SignedWriteCommand: ATTPDUCodable {
    @inlinable public static var opcode: ATTOpcode { .signedWriteCommand }
    /// The attribute handle written.
    public var handle: UInt16
    /// The value and the signature after it, as on the wire: one view instead of two
    /// keeps the PDU, and so every `ATTPDU`, the size of one slice, holding the input's
    /// storage once.
    @usableFromInline
    var valueAndSignature: ArraySlice<UInt8>

    /// The value written, without the signature.
    public var value: ArraySlice<UInt8> {
        get { valueAndSignature.dropLast(ATTLimits.signatureLength) }
        set { valueAndSignature = ArraySlice(Array(newValue) + authenticationSignature) }
    }

    /// 12 octets: the 32-bit SignCounter followed by the 64-bit MAC.
    public var authenticationSignature: ArraySlice<UInt8> {
        get { valueAndSignature.suffix(ATTLimits.signatureLength) }
        set {
            // The initialiser checked the length; a setter cannot throw, so a wrong one traps.
            precondition(newValue.count == ATTLimits.signatureLength, "an authentication signature is 12 octets")
            valueAndSignature = ArraySlice(Array(value) + newValue)
        }
    }

    /// Fails unless `authenticationSignature` is 12 bytes.
    public init(handle: UInt16, value: ArraySlice<UInt8>, authenticationSignature: ArraySlice<UInt8>) throws(ATTDecodingError) {
        guard authenticationSignature.count == ATTLimits.signatureLength else {
            throw .invalidSignatureLength(authenticationSignature.count)
        }
        self.handle = handle
        self.valueAndSignature = ArraySlice(Array(value) + authenticationSignature)
    }

    /// A command from its wire form after the handle, whose length a parser has checked.
    @inlinable
    init(handle: UInt16, valueAndSignature: ArraySlice<UInt8>) {
        self.handle = handle
        self.valueAndSignature = valueAndSignature
    }

    /// The SignCounter, the first four octets of the signature.
    public var signCounter: UInt32 { authenticationSignature.littleEndianUInt32(at: SignatureField.signCounter) }

    @usableFromInline
    enum Field {
        @inlinable static var attributeHandle: Range<Int> { 1..<3 }
        /// The value, then the 12-octet signature, to the end of the PDU.
        @inlinable static var attributeValueAndSignature: PartialRangeFrom<Int> { 3... }
    }

    /// The signature's fields (Core 5.4 Vol 3 Part H §2.4.5): the SignCounter, then the MAC.
    enum SignatureField {
        static let signCounter = 0..<4
    }

    @inlinable
    public init(parsing pdu: borrowing ArraySlice<UInt8>) throws(ATTDecodingError) {
        let tail = Field.attributeValueAndSignature
        try ATTWire.check(pdu, is: Self.opcode, atLeast: tail.lowerBound + ATTLimits.signatureLength)
        handle = pdu.littleEndianUInt16(at: Field.attributeHandle)
        valueAndSignature = pdu.bytes(at: tail)
        try ATTWire.checkValue(valueAndSignature.dropLast(ATTLimits.signatureLength), of: Self.opcode)
    }

    public var encodedLength: Int { Field.attributeValueAndSignature.lowerBound + value.count + ATTLimits.signatureLength }

    public func encode(into writer: inout ByteWriter) {
        writer.write(Self.opcode.rawValue)
        writer.write(handle)
        writer.write(valueAndSignature)
    }
}

extension SignedWriteCommand {
    /// ATT_SIGNED_WRITE_CMD decoded from borrowed bytes (`ATTBorrowedPDU`): the value and
    /// the signature are the ranges of them they cover.
    public struct Borrowed: ATTBorrowedPDU {
        public typealias Owned = SignedWriteCommand
        /// The attribute handle written.
        public let handle: UInt16
        /// The value and the signature after it, as on the wire (one range keeps the
        /// decoded PDU small, as `SignedWriteCommand` keeps one slice).
        @usableFromInline let valueAndSignature: Range<Int>

        /// Where the value lies in the PDU.
        @inlinable
        public var value: Range<Int> { valueAndSignature.lowerBound..<(valueAndSignature.upperBound &- ATTLimits.signatureLength) }
        /// Where the 12-octet signature lies in the PDU: the SignCounter, then the MAC.
        @inlinable
        public var authenticationSignature: Range<Int> {
            (valueAndSignature.upperBound &- ATTLimits.signatureLength)..<valueAndSignature.upperBound
        }

        /// The SignCounter, the first four octets of the signature, read from `pdu`: the
        /// bytes this was decoded from.
        @inlinable
        public func signCounter(in pdu: Span<UInt8>) -> UInt32 {
            pdu.littleEndianUInt32(at: authenticationSignature.lowerBound)
        }

        @inlinable @inline(__always)
        public init(parsing pdu: Span<UInt8>) throws(ATTDecodingError) {
            let tail = Field.attributeValueAndSignature
            try ATTWire.check(pdu, is: Owned.opcode, atLeast: tail.lowerBound + ATTLimits.signatureLength)
            handle = pdu.littleEndianUInt16(at: Field.attributeHandle)
            valueAndSignature = pdu.range(of: tail)
            try ATTWire.checkBorrowedValueLength(valueAndSignature.count &- ATTLimits.signatureLength, of: Owned.opcode)
        }

        @inlinable
        public func owned(in pdu: ArraySlice<UInt8>) -> SignedWriteCommand {
            SignedWriteCommand(handle: handle, valueAndSignature: pdu.bytes(at: valueAndSignature))
        }
    }
}
