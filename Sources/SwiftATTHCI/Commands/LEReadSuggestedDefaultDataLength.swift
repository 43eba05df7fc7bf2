import SwiftATTCore

/// HCI_LE_Read_Suggested_Default_Data_Length: the LL payload and time the controller
/// proposes on new connections. Core 5.4 Vol 4 Part E §7.8.34.
public struct LEReadSuggestedDefaultDataLength: HCIParameterlessCommand, Hashable {
    @inlinable public static var opcode: HCIOpcode { HCIOpcode(ogf: 0x08, ocf: 0x0023) }
    public init() {}

    public struct ReturnParameters: HCIReturnParameters, ByteEncodable, Hashable {
        public var status: HCIStatus
        /// Suggested_Max_TX_Octets (0x001B–0x00FB).
        public var suggestedMaxTxOctets: UInt16
        /// Suggested_Max_TX_Time, in microseconds.
        public var suggestedMaxTxTime: UInt16

        /// Return parameters as a controller returns them (an emulated one, a test).
        public init(status: HCIStatus, suggestedMaxTxOctets: UInt16, suggestedMaxTxTime: UInt16) {
            self.status = status
            self.suggestedMaxTxOctets = suggestedMaxTxOctets
            self.suggestedMaxTxTime = suggestedMaxTxTime
        }

        public init(returnParameters: borrowing ArraySlice<UInt8>) throws(HCIDecodingError) {
            let p = try HCIWire.returnBlock(returnParameters, "LE Read Suggested Default Data Length return parameters", length: 5)
            status = HCIStatus(p.byte(at: 0))
            suggestedMaxTxOctets = p.littleEndianUInt16(at: 1)
            suggestedMaxTxTime = p.littleEndianUInt16(at: 3)
        }

        public var encodedLength: Int { 5 }

        public func encode(into writer: inout ByteWriter) {
            writer.write(status.rawValue)
            writer.write(suggestedMaxTxOctets)
            writer.write(suggestedMaxTxTime)
        }
    }
}
