import SwiftATTCore

/// HCI_LE_Read_PHY: the PHYs a connection uses now (Bumble always says 1M).
/// Core 5.4 Vol 4 Part E §7.8.47.
public struct LEReadPHY: HCICommand, Hashable {
    @inlinable public static var opcode: HCIOpcode { HCIOpcode(ogf: 0x08, ocf: 0x0030) }
    /// Connection_Handle: the connection, as the controller numbers it.
    public var connectionHandle: UInt16

    /// HCI_LE_Read_PHY with these parameters.
    public init(connectionHandle: UInt16) { self.connectionHandle = connectionHandle }

    public var parametersLength: Int { 2 }

    public func encodeParameters(into writer: inout ByteWriter) {
        writer.write(connectionHandle)
    }

    public init(parameters p: borrowing ArraySlice<UInt8>) throws(HCIDecodingError) {
        try HCIWire.check(p, "LE Read PHY parameters", length: 2)
        connectionHandle = p.littleEndianUInt16(at: 0)
    }

    public struct ReturnParameters: HCIReturnParameters, ByteEncodable, Hashable {
        public var status: HCIStatus
        /// Connection_Handle: the connection, as the controller numbers it.
        public var connectionHandle: UInt16
        /// TX_PHY: the PHY this side transmits on.
        public var txPHY: LEPHY
        /// RX_PHY: the PHY this side receives on.
        public var rxPHY: LEPHY

        /// Return parameters as a controller returns them (an emulated one, a test).
        public init(status: HCIStatus, connectionHandle: UInt16, txPHY: LEPHY, rxPHY: LEPHY) {
            self.status = status
            self.connectionHandle = connectionHandle
            self.txPHY = txPHY
            self.rxPHY = rxPHY
        }

        public init(returnParameters: borrowing ArraySlice<UInt8>) throws(HCIDecodingError) {
            let what = "LE Read PHY return parameters"
            let p = try HCIWire.returnBlock(returnParameters, what, length: 5)
            status = HCIStatus(p.byte(at: 0))
            connectionHandle = p.littleEndianUInt16(at: 1)
            // An error status may come without PHYs; they read as 1M then.
            txPHY = status.isSuccess ? try HCIField.decode(LEPHY.self, p.byte(at: 3), "\(what) TX_PHY") : .le1M
            rxPHY = status.isSuccess ? try HCIField.decode(LEPHY.self, p.byte(at: 4), "\(what) RX_PHY") : .le1M
        }

        public var encodedLength: Int { 5 }

        public func encode(into writer: inout ByteWriter) {
            writer.write(status.rawValue)
            writer.write(connectionHandle)
            writer.write(txPHY.rawValue)
            writer.write(rxPHY.rawValue)
        }
    }
}
