import SwiftATTCore

/// ATT_READ_BY_TYPE_REQ: values of attributes of one type in a range (characteristic
/// discovery, and Read Using Characteristic UUID). Core 5.4 Vol 3 Part F §3.4.4.1.
public struct ReadByTypeRequest: ATTPDUCodable, ATTBorrowedPDU {
    @inlinable public static var opcode: ATTOpcode { .readByTypeRequest }
    /// The first handle of the range searched.
    public var startingHandle: UInt16
    /// The last handle of the range searched, inclusive.
    public var endingHandle: UInt16
    /// A 16- or 128-bit UUID.
    public var attributeType: BluetoothUUID

    /// A request for the values of the attributes of `attributeType` between the two handles.
    public init(startingHandle: UInt16, endingHandle: UInt16, attributeType: BluetoothUUID) {
        self.startingHandle = startingHandle
        self.endingHandle = endingHandle
        self.attributeType = attributeType
    }

    @inlinable
    public init(parsing pdu: borrowing ArraySlice<UInt8>) throws(ATTDecodingError) {
        (startingHandle, endingHandle, attributeType) = try ATTTypeInRangeRequest.parse(pdu, of: Self.opcode)
    }

    /// Parses one whole PDU from borrowed bytes (`ATTBorrowedPDU`): it has no byte fields,
    /// so it decodes to itself.
    @inlinable @inline(__always)
    public init(parsing pdu: Span<UInt8>) throws(ATTDecodingError) {
        (startingHandle, endingHandle, attributeType) = try ATTTypeInRangeRequest.parse(pdu, of: Self.opcode)
    }

    public var encodedLength: Int { ATTTypeInRangeRequest.encodedLength(type: attributeType) }

    public func encode(into writer: inout ByteWriter) {
        ATTTypeInRangeRequest.encode(Self.opcode, startingHandle, endingHandle, attributeType, into: &writer)
    }
}
