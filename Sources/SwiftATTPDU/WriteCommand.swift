import SwiftATTCore

/// ATT_WRITE_CMD: write a value with no response (write without response). Core 5.4 Vol 3 Part F §3.4.5.3.
public struct WriteCommand: ATTHandleValuePDU {
    @inlinable public static var opcode: ATTOpcode { .writeCommand }
    public var handle: UInt16
    public var value: ArraySlice<UInt8>

    public init(handle: UInt16, value: ArraySlice<UInt8>) {
        self.handle = handle
        self.value = value
    }
}

extension WriteCommand {
    /// WriteCommand decoded from borrowed bytes (`ATTBorrowedPDU`): the value is the range of them it covers.
    public struct Borrowed: ATTBorrowedHandleValuePDU {
        public typealias Owned = WriteCommand
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
