import SwiftATTCore

/// ATT_READ_MULTIPLE_VARIABLE_REQ: read two or more values, each returned with its length. Core 5.4 Vol 3 Part F §3.4.4.11.
public struct ReadMultipleVariableRequest: ATTHandleListPDU {
    @inlinable public static var opcode: ATTOpcode { .readMultipleVariableRequest }
    public var setOfHandles: ATTHandleList

    public init(setOfHandles: ATTHandleList) { self.setOfHandles = setOfHandles }
}

extension ReadMultipleVariableRequest {
    /// ReadMultipleVariableRequest decoded from borrowed bytes (`ATTBorrowedPDU`): the handles are the range of them they cover.
    public struct Borrowed: ATTBorrowedHandleListPDU {
        public typealias Owned = ReadMultipleVariableRequest
        /// Where the handles lie in the PDU; `handle(at:in:)` reads one.
        public let setOfHandles: Range<Int>

        @inlinable
        public init(setOfHandles: Range<Int>) {
            self.setOfHandles = setOfHandles
        }
    }
}
