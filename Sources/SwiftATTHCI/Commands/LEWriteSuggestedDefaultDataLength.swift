import SwiftATTCore

/// HCI_LE_Write_Suggested_Default_Data_Length: the LL payload and time the controller
/// should propose on new connections. Core 5.4 Vol 4 Part E §7.8.35.
public struct LEWriteSuggestedDefaultDataLength: HCICommand, Hashable {
    @inlinable public static var opcode: HCIOpcode { HCIOpcode(ogf: 0x08, ocf: 0x0024) }
    /// Suggested_Max_TX_Octets (0x001B–0x00FB).
    public var suggestedMaxTxOctets: UInt16
    /// Suggested_Max_TX_Time, in microseconds (0x0148–0x4290).
    public var suggestedMaxTxTime: UInt16

    /// HCI_LE_Write_Suggested_Default_Data_Length with these parameters.
    public init(suggestedMaxTxOctets: UInt16, suggestedMaxTxTime: UInt16) {
        self.suggestedMaxTxOctets = suggestedMaxTxOctets
        self.suggestedMaxTxTime = suggestedMaxTxTime
    }

    public var parametersLength: Int { 4 }

    public func encodeParameters(into writer: inout ByteWriter) {
        writer.write(suggestedMaxTxOctets)
        writer.write(suggestedMaxTxTime)
    }

    public init(parameters p: borrowing ArraySlice<UInt8>) throws(HCIDecodingError) {
        try HCIWire.check(p, "LE Write Suggested Default Data Length parameters", length: 4)
        suggestedMaxTxOctets = p.littleEndianUInt16(at: 0)
        suggestedMaxTxTime = p.littleEndianUInt16(at: 2)
    }
}
