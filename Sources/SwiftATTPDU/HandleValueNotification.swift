import SwiftATTCore

/// ATT_HANDLE_VALUE_NTF: a server pushes a value, unacknowledged. Core 5.4 Vol 3 Part F §3.4.7.1.
public struct HandleValueNotification: ATTHandleValuePDU {
    @inlinable public static var opcode: ATTOpcode { .handleValueNotification }
    public var handle: UInt16
    public var value: ArraySlice<UInt8>

    public init(handle: UInt16, value: ArraySlice<UInt8>) {
        self.handle = handle
        self.value = value
    }
}

extension HandleValueNotification {
    /// HandleValueNotification decoded from borrowed bytes (`ATTBorrowedPDU`): the value is the range of them it covers.
    public struct Borrowed: ATTBorrowedHandleValuePDU {
        public typealias Owned = HandleValueNotification
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
