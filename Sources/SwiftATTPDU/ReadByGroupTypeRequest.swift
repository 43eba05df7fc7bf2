import SwiftATTCore

/// ATT_READ_BY_GROUP_TYPE_REQ: grouping attributes of one type in a range (primary
/// service discovery). Core 5.4 Vol 3 Part F §3.4.4.9.
public struct ReadByGroupTypeRequest: ATTPDUCodable, ATTBorrowedPDU {
    @inlinable public static var opcode: ATTOpcode { .readByGroupTypeRequest }
    /// The first handle of the range searched.
    public var startingHandle: UInt16
    /// The last handle of the range searched, inclusive.
    public var endingHandle: UInt16
    /// A 16- or 128-bit UUID; a server supports only grouping types.
    public var attributeGroupType: BluetoothUUID

    /// A request for the groups of `attributeGroupType` (a service declaration's type) between the
    /// two handles.
    public init(startingHandle: UInt16, endingHandle: UInt16, attributeGroupType: BluetoothUUID) {
        self.startingHandle = startingHandle
        self.endingHandle = endingHandle
        self.attributeGroupType = attributeGroupType
    }

    @inlinable
    public init(parsing pdu: borrowing ArraySlice<UInt8>) throws(ATTDecodingError) {
        (startingHandle, endingHandle, attributeGroupType) = try ATTTypeInRangeRequest.parse(pdu, of: Self.opcode)
    }

    /// Parses one whole PDU from borrowed bytes (`ATTBorrowedPDU`): it has no byte fields,
    /// so it decodes to itself.
    @inlinable @inline(__always)
    public init(parsing pdu: Span<UInt8>) throws(ATTDecodingError) {
        (startingHandle, endingHandle, attributeGroupType) = try ATTTypeInRangeRequest.parse(pdu, of: Self.opcode)
    }

    public var encodedLength: Int { ATTTypeInRangeRequest.encodedLength(type: attributeGroupType) }

    public func encode(into writer: inout ByteWriter) {
        ATTTypeInRangeRequest.encode(Self.opcode, startingHandle, endingHandle, attributeGroupType, into: &writer)
    }
}
