import SwiftATTCore

/// ATT_READ_REQ: read one attribute's value. Core 5.4 Vol 3 Part F §3.4.4.3.
public struct ReadRequest: ATTHandlePDU {
    @inlinable public static var opcode: ATTOpcode { .readRequest }
    public var handle: UInt16

    public init(handle: UInt16) { self.handle = handle }
}
