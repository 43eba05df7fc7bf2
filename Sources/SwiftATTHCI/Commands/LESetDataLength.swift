import SwiftATTCore

/// HCI_LE_Set_Data_Length: suggest the largest LL payload and time for one connection
/// (Bumble answers 0x01: BENCH.md quirk 8). Core 5.4 Vol 4 Part E §7.8.33.
public struct LESetDataLength: HCICommand, Hashable {
    @inlinable public static var opcode: HCIOpcode { HCIOpcode(ogf: 0x08, ocf: 0x0022) }
    public typealias ReturnParameters = HCIConnectionHandleReturn
    /// Connection_Handle: the connection, as the controller numbers it.
    public var connectionHandle: UInt16
    /// TX_Octets: payload octets per LL data PDU (0x001B–0x00FB).
    public var txOctets: UInt16
    /// TX_Time, in microseconds (0x0148–0x4290).
    public var txTime: UInt16

    /// HCI_LE_Set_Data_Length with these parameters.
    public init(connectionHandle: UInt16, txOctets: UInt16, txTime: UInt16) {
        self.connectionHandle = connectionHandle
        self.txOctets = txOctets
        self.txTime = txTime
    }

    public var parametersLength: Int { 6 }

    public func encodeParameters(into writer: inout ByteWriter) {
        writer.write(connectionHandle)
        writer.write(txOctets)
        writer.write(txTime)
    }

    public init(parameters p: borrowing ArraySlice<UInt8>) throws(HCIDecodingError) {
        try HCIWire.check(p, "LE Set Data Length parameters", length: 6)
        connectionHandle = p.littleEndianUInt16(at: 0)
        txOctets = p.littleEndianUInt16(at: 2)
        txTime = p.littleEndianUInt16(at: 4)
    }
}
