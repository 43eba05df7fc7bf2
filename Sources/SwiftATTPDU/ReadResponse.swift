import SwiftATTCore

/// ATT_READ_RSP: the value read, or its first ATT_MTU−1 octets. Core 5.4 Vol 3 Part F §3.4.4.4.
public struct ReadResponse: ATTValuePDU {
    @inlinable public static var opcode: ATTOpcode { .readResponse }
    public var value: ArraySlice<UInt8>

    public init(value: ArraySlice<UInt8>) { self.value = value }
}

extension ReadResponse {
    /// ReadResponse decoded from borrowed bytes (`ATTBorrowedPDU`): the value is the range of them it covers.
    public struct Borrowed: ATTBorrowedValuePDU {
        public typealias Owned = ReadResponse
        /// Where the value lies in the PDU.
        public let value: Range<Int>

        @inlinable
        public init(value: Range<Int>) {
            self.value = value
        }
    }
}
