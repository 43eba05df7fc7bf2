import SwiftATTCore

/// ATT_PREPARE_WRITE_REQ: queue part of a value at an offset, for a long or reliable write. Core 5.4 Vol 3 Part F §3.4.6.1.
public struct PrepareWriteRequest: ATTPreparedValuePDU {
    @inlinable public static var opcode: ATTOpcode { .prepareWriteRequest }
    public var handle: UInt16
    public var valueOffset: UInt16
    public var partAttributeValue: ArraySlice<UInt8>

    public init(handle: UInt16, valueOffset: UInt16, partAttributeValue: ArraySlice<UInt8>) {
        self.handle = handle
        self.valueOffset = valueOffset
        self.partAttributeValue = partAttributeValue
    }
}

extension PrepareWriteRequest {
    /// PrepareWriteRequest decoded from borrowed bytes (`ATTBorrowedPDU`): the part value is the range of them it covers.
    public struct Borrowed: ATTBorrowedPreparedValuePDU {
        public typealias Owned = PrepareWriteRequest
        public let handle: UInt16
        public let valueOffset: UInt16
        /// Where the part value lies in the PDU.
        public let partAttributeValue: Range<Int>

        @inlinable
        public init(handle: UInt16, valueOffset: UInt16, partAttributeValue: Range<Int>) {
            self.handle = handle
            self.valueOffset = valueOffset
            self.partAttributeValue = partAttributeValue
        }
    }
}
