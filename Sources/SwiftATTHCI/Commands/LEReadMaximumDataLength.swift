import SwiftATTCore

/// HCI_LE_Read_Maximum_Data_Length: the largest LL payloads and times the controller
/// supports. Core 5.4 Vol 4 Part E §7.8.46.
public struct LEReadMaximumDataLength: HCIParameterlessCommand, Hashable {
    @inlinable public static var opcode: HCIOpcode { HCIOpcode(ogf: 0x08, ocf: 0x002F) }
    public init() {}

    public struct ReturnParameters: HCIReturnParameters, ByteEncodable, Hashable {
        public var status: HCIStatus
        /// Supported_Max_TX_Octets: the longest LL payload the controller can send.
        public var supportedMaxTxOctets: UInt16
        /// Supported_Max_TX_Time, in microseconds.
        public var supportedMaxTxTime: UInt16
        /// Supported_Max_RX_Octets: the longest LL payload the controller can receive.
        public var supportedMaxRxOctets: UInt16
        /// Supported_Max_RX_Time, in microseconds.
        public var supportedMaxRxTime: UInt16

        /// Return parameters as a controller returns them (an emulated one, a test).
        public init(status: HCIStatus, supportedMaxTxOctets: UInt16, supportedMaxTxTime: UInt16,
                    supportedMaxRxOctets: UInt16, supportedMaxRxTime: UInt16) {
            self.status = status
            self.supportedMaxTxOctets = supportedMaxTxOctets
            self.supportedMaxTxTime = supportedMaxTxTime
            self.supportedMaxRxOctets = supportedMaxRxOctets
            self.supportedMaxRxTime = supportedMaxRxTime
        }

        public init(returnParameters: borrowing ArraySlice<UInt8>) throws(HCIDecodingError) {
            let p = try HCIWire.returnBlock(returnParameters, "LE Read Maximum Data Length return parameters", length: 9)
            status = HCIStatus(p.byte(at: 0))
            supportedMaxTxOctets = p.littleEndianUInt16(at: 1)
            supportedMaxTxTime = p.littleEndianUInt16(at: 3)
            supportedMaxRxOctets = p.littleEndianUInt16(at: 5)
            supportedMaxRxTime = p.littleEndianUInt16(at: 7)
        }

        public var encodedLength: Int { 9 }

        public func encode(into writer: inout ByteWriter) {
            writer.write(status.rawValue)
            writer.write(supportedMaxTxOctets)
            writer.write(supportedMaxTxTime)
            writer.write(supportedMaxRxOctets)
            writer.write(supportedMaxRxTime)
        }
    }
}
