import SwiftATTCore

/// HCI_LE_Set_Default_PHY: the PHYs the host prefers for new connections.
/// Core 5.4 Vol 4 Part E §7.8.48.
public struct LESetDefaultPHY: HCICommand, Hashable {
    @inlinable public static var opcode: HCIOpcode { HCIOpcode(ogf: 0x08, ocf: 0x0031) }
    /// All_PHYs: for which direction the host has no preference.
    public var allPHYs: LESetPHY.AllPHYs
    /// TX_PHYs: the PHYs the host prefers to transmit on.
    public var txPHYs: LEPHYs
    /// RX_PHYs: the PHYs the host prefers to receive on.
    public var rxPHYs: LEPHYs

    /// HCI_LE_Set_Default_PHY with these parameters.
    public init(allPHYs: LESetPHY.AllPHYs = [], txPHYs: LEPHYs, rxPHYs: LEPHYs) {
        self.allPHYs = allPHYs
        self.txPHYs = txPHYs
        self.rxPHYs = rxPHYs
    }

    public var parametersLength: Int { 3 }

    public func encodeParameters(into writer: inout ByteWriter) {
        writer.write(allPHYs.rawValue)
        writer.write(txPHYs.rawValue)
        writer.write(rxPHYs.rawValue)
    }

    public init(parameters p: borrowing ArraySlice<UInt8>) throws(HCIDecodingError) {
        let what = "LE Set Default PHY"
        try HCIWire.check(p, "\(what) parameters", length: 3)
        allPHYs = try HCIField.decodeBits(LESetPHY.AllPHYs.self, p.byte(at: 0), known: .all, "\(what) All_PHYs")
        txPHYs = try HCIField.decodeBits(LEPHYs.self, p.byte(at: 1), known: .all, "\(what) TX_PHYs")
        rxPHYs = try HCIField.decodeBits(LEPHYs.self, p.byte(at: 2), known: .all, "\(what) RX_PHYs")
    }
}
