import SwiftATTCore

/// ATT_PREPARE_WRITE_RSP: echoes the queued part, so a client can verify it (reliable writes). Core 5.4 Vol 3 Part F §3.4.6.2.
public struct PrepareWriteResponse: ATTPreparedValuePDU {
    public static let opcode = ATTOpcode.prepareWriteResponse
    public var handle: UInt16
    public var valueOffset: UInt16
    public var partAttributeValue: ArraySlice<UInt8>

    public init(handle: UInt16, valueOffset: UInt16, partAttributeValue: ArraySlice<UInt8>) {
        self.handle = handle
        self.valueOffset = valueOffset
        self.partAttributeValue = partAttributeValue
    }
}
