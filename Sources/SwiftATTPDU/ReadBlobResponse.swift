import SwiftATTCore

/// ATT_READ_BLOB_RSP: part of a long value, from the requested offset. Core 5.4 Vol 3 Part F §3.4.4.6.
public struct ReadBlobResponse: ATTValuePDU {
    @inlinable public static var opcode: ATTOpcode { .readBlobResponse }
    public var value: ArraySlice<UInt8>

    public init(value: ArraySlice<UInt8>) { self.value = value }
}

extension ReadBlobResponse {
    /// ReadBlobResponse decoded from borrowed bytes (`ATTBorrowedPDU`): the value is the range of them it covers.
    public struct Borrowed: ATTBorrowedValuePDU {
        public typealias Owned = ReadBlobResponse
        /// Where the value lies in the PDU.
        public let value: Range<Int>

        @inlinable
        public init(value: Range<Int>) {
            self.value = value
        }
    }
}
