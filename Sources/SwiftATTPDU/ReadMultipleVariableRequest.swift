import SwiftATTCore

/// ATT_READ_MULTIPLE_VARIABLE_REQ: read two or more values, each returned with its length. Core 5.4 Vol 3 Part F §3.4.4.11.
public struct ReadMultipleVariableRequest: ATTHandleListPDU {
    public static let opcode = ATTOpcode.readMultipleVariableRequest
    public var setOfHandles: ATTHandleList

    public init(setOfHandles: ATTHandleList) { self.setOfHandles = setOfHandles }
}
