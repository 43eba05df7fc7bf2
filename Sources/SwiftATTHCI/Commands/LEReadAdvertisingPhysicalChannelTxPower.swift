import SwiftATTCore

/// HCI_LE_Read_Advertising_Physical_Channel_Tx_Power: the power legacy advertising
/// uses, for the TX Power Level AD type. Core 5.4 Vol 4 Part E §7.8.6.
public struct LEReadAdvertisingPhysicalChannelTxPower: HCIParameterlessCommand, Hashable {
    @inlinable public static var opcode: HCIOpcode { HCIOpcode(ogf: 0x08, ocf: 0x0007) }
    public init() {}

    public struct ReturnParameters: HCIReturnParameters, ByteEncodable, Hashable {
        public var status: HCIStatus
        /// TX_Power_Level, in dBm (−127…20).
        public var txPowerLevel: Int8

        /// Return parameters as a controller returns them (an emulated one, a test).
        public init(status: HCIStatus, txPowerLevel: Int8) {
            self.status = status
            self.txPowerLevel = txPowerLevel
        }

        public init(returnParameters: borrowing ArraySlice<UInt8>) throws(HCIDecodingError) {
            let p = try HCIWire.returnBlock(
                returnParameters, "LE Read Advertising Physical Channel Tx Power return parameters", length: 2)
            status = HCIStatus(p.byte(at: 0))
            txPowerLevel = p.int8(at: 1)
        }

        public var encodedLength: Int { 2 }

        public func encode(into writer: inout ByteWriter) {
            writer.write(status.rawValue)
            writer.write(UInt8(bitPattern: txPowerLevel))
        }
    }
}
