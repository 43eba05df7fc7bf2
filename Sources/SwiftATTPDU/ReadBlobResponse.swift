import SwiftATTCore

/// ATT_READ_BLOB_RSP: part of a long value, from the requested offset. Core 5.4 Vol 3 Part F §3.4.4.6.
public struct ReadBlobResponse: ATTValuePDU {
    public static let opcode = ATTOpcode.readBlobResponse
    public var value: ArraySlice<UInt8>

    public init(value: ArraySlice<UInt8>) { self.value = value }
}
