import SwiftATTCore

/// ATT_HANDLE_VALUE_IND: a server pushes a value the client must confirm. Core 5.4 Vol 3 Part F §3.4.7.2.
public struct HandleValueIndication: ATTHandleValuePDU {
    @inlinable public static var opcode: ATTOpcode { .handleValueIndication }
    public var handle: UInt16
    public var value: ArraySlice<UInt8>

    public init(handle: UInt16, value: ArraySlice<UInt8>) {
        self.handle = handle
        self.value = value
    }
}

extension HandleValueIndication {
    /// HandleValueIndication decoded from borrowed bytes (`ATTBorrowedPDU`): the value is the range of them it covers.
    public struct Borrowed: ATTBorrowedHandleValuePDU {
        public typealias Owned = HandleValueIndication
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
