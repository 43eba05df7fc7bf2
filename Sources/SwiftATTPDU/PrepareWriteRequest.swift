import SwiftATTCore

/// ATT_PREPARE_WRITE_REQ: queue part of a value at an offset, for a long or reliable write. Core 5.4 Vol 3 Part F §3.4.6.1.
public struct PrepareWriteRequest: ATTPreparedValuePDU {
    public static let opcode = ATTOpcode.prepareWriteRequest
    public var handle: UInt16
    public var valueOffset: UInt16
    public var partAttributeValue: ArraySlice<UInt8>

    public init(handle: UInt16, valueOffset: UInt16, partAttributeValue: ArraySlice<UInt8>) {
        self.handle = handle
        self.valueOffset = valueOffset
        self.partAttributeValue = partAttributeValue
    }
}
