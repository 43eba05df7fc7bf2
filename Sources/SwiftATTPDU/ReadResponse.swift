import SwiftATTCore

/// ATT_READ_RSP: the value read, or its first ATT_MTU−1 octets. Core 5.4 Vol 3 Part F §3.4.4.4.
public struct ReadResponse: ATTValuePDU {
    public static let opcode = ATTOpcode.readResponse
    public var value: ArraySlice<UInt8>

    public init(value: ArraySlice<UInt8>) { self.value = value }
}
