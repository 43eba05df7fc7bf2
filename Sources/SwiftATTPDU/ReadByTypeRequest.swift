import SwiftATTCore

/// ATT_READ_BY_TYPE_REQ: values of attributes of one type in a range (characteristic
/// discovery, and Read Using Characteristic UUID). Core 5.4 Vol 3 Part F §3.4.4.1.
public struct ReadByTypeRequest: ATTPDUCodable {
    public static let opcode = ATTOpcode.readByTypeRequest
    public var startingHandle: UInt16
    public var endingHandle: UInt16
    /// A 16- or 128-bit UUID.
    public var attributeType: BluetoothUUID

    public init(startingHandle: UInt16, endingHandle: UInt16, attributeType: BluetoothUUID) {
        self.startingHandle = startingHandle
        self.endingHandle = endingHandle
        self.attributeType = attributeType
    }

    @usableFromInline
    enum Field {
        @usableFromInline static let startingHandle = 1..<3
        @usableFromInline static let endingHandle = 3..<5
        /// A 16-bit UUID (two octets) or a 128-bit one (sixteen), to the end of the PDU.
        @usableFromInline static let attributeType = 5...
        /// The PDU with a 16-bit UUID.
        @usableFromInline static let minimumPDULength = 7
    }

    @inlinable
    public init(parsing pdu: borrowing ArraySlice<UInt8>) throws(ATTDecodingError) {
        try ATTWire.check(pdu, is: Self.opcode, atLeast: Field.minimumPDULength)
        startingHandle = pdu.littleEndianUInt16(at: Field.startingHandle)
        endingHandle = pdu.littleEndianUInt16(at: Field.endingHandle)
        attributeType = try ATTWire.uuid(pdu.bytes(at: Field.attributeType), of: Self.opcode)
    }

    public var encodedLength: Int { Field.attributeType.lowerBound + attributeType.encodedLength }

    public func encode(into writer: inout ByteWriter) {
        writer.write(Self.opcode.rawValue)
        writer.write(startingHandle)
        writer.write(endingHandle)
        attributeType.encode(into: &writer)
    }
}
