import SwiftATTCore

/// HCI_LE_PHY_Update_Complete (LE Meta subevent 0x0C): a connection's PHYs changed, or
/// LE Set PHY failed. Core 5.4 Vol 4 Part E §7.7.65.12.
public struct LEPHYUpdateComplete: LEMetaSubevent, Hashable {
    public static let subeventCode: UInt8 = 0x0C
    /// Status: success, or why it failed.
    public var status: HCIStatus
    /// Connection_Handle: the connection, as the controller numbers it.
    public var connectionHandle: UInt16
    /// TX_PHY: the PHY this side transmits on.
    public var txPHY: LEPHY
    /// RX_PHY: the PHY this side receives on.
    public var rxPHY: LEPHY

    /// HCI_LE_PHY_Update_Complete with these parameters, as a controller (an emulated one, a test)
    /// sends it.
    public init(status: HCIStatus = .success, connectionHandle: UInt16, txPHY: LEPHY, rxPHY: LEPHY) {
        self.status = status
        self.connectionHandle = connectionHandle
        self.txPHY = txPHY
        self.rxPHY = rxPHY
    }

    public init(parameters p: borrowing ArraySlice<UInt8>) throws(HCIDecodingError) {
        let what = "LE PHY Update Complete"
        try HCIWire.check(p, what, length: 5)
        status = HCIStatus(p.byte(at: 0))
        connectionHandle = p.littleEndianUInt16(at: 1)
        txPHY = try HCIField.decode(LEPHY.self, p.byte(at: 3), "\(what) TX_PHY")
        rxPHY = try HCIField.decode(LEPHY.self, p.byte(at: 4), "\(what) RX_PHY")
    }

    public var parametersLength: Int { 5 }

    public func encodeParameters(into writer: inout ByteWriter) {
        writer.write(status.rawValue)
        writer.write(connectionHandle)
        writer.write(txPHY.rawValue)
        writer.write(rxPHY.rawValue)
    }
}
