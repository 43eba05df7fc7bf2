import SwiftATTCore

/// ATT_WRITE_REQ: write a value and expect a Write Response. Core 5.4 Vol 3 Part F §3.4.5.1.
public struct WriteRequest: ATTHandleValuePDU {
    @inlinable public static var opcode: ATTOpcode { .writeRequest }
    public var handle: UInt16
    public var value: ArraySlice<UInt8>

    public init(handle: UInt16, value: ArraySlice<UInt8>) {
        self.handle = handle
        self.value = value
    }
}

extension WriteRequest {
    /// WriteRequest decoded from borrowed bytes (`ATTBorrowedPDU`): the value is the range of them it covers.
    public struct Borrowed: ATTBorrowedHandleValuePDU {
        public typealias Owned = WriteRequest
        public let handle: UInt16
        /// Where the value lies in the PDU.
        public let value: Range<Int>

        @inlinable
        public init(handle: UInt16, value: Range<Int>) {
            self.handle = handle
            self.value = value
        }
    }
}
