import SwiftATTCore

/// ATT_READ_MULTIPLE_REQ: read two or more fixed-length values at once. Core 5.4 Vol 3 Part F §3.4.4.7.
public struct ReadMultipleRequest: ATTHandleListPDU {
    @inlinable public static var opcode: ATTOpcode { .readMultipleRequest }
    public var setOfHandles: ATTHandleList

    public init(setOfHandles: ATTHandleList) { self.setOfHandles = setOfHandles }
}

extension ReadMultipleRequest {
    /// ReadMultipleRequest decoded from borrowed bytes (`ATTBorrowedPDU`): the handles are the range of them they cover.
    public struct Borrowed: ATTBorrowedHandleListPDU {
        public typealias Owned = ReadMultipleRequest
        /// Where the handles lie in the PDU; `handle(at:in:)` reads one.
        public let setOfHandles: Range<Int>

        @inlinable
        public init(setOfHandles: Range<Int>) {
            self.setOfHandles = setOfHandles
        }
    }
}
