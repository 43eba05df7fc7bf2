import SwiftATTCore

/// ATT_READ_MULTIPLE_REQ: read two or more fixed-length values at once. Core 5.4 Vol 3 Part F §3.4.4.7.
public struct ReadMultipleRequest: ATTHandleListPDU {
    public static let opcode = ATTOpcode.readMultipleRequest
    public var setOfHandles: ATTHandleList

    public init(setOfHandles: ATTHandleList) { self.setOfHandles = setOfHandles }
}
