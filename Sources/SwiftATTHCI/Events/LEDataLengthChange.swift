import SwiftATTCore

/// HCI_LE_Data_Length_Change (LE Meta subevent 0x07): the largest LL payloads and times
/// on a connection changed. Core 5.4 Vol 4 Part E §7.7.65.7.
public struct LEDataLengthChange: LEMetaSubevent, Hashable {
    public static let subeventCode: UInt8 = 0x07
    /// Connection_Handle: the connection, as the controller numbers it.
    public var connectionHandle: UInt16
    /// Max_TX_Octets: the longest LL payload this side now sends.
    public var maxTxOctets: UInt16
    /// Max_TX_Time, in microseconds.
    public var maxTxTime: UInt16
    /// Max_RX_Octets: the longest LL payload this side now receives.
    public var maxRxOctets: UInt16
    /// Max_RX_Time, in microseconds.
    public var maxRxTime: UInt16

    /// HCI_LE_Data_Length_Change with these parameters, as a controller (an emulated one, a test)
    /// sends it.
    public init(connectionHandle: UInt16, maxTxOctets: UInt16, maxTxTime: UInt16, maxRxOctets: UInt16, maxRxTime: UInt16) {
        self.connectionHandle = connectionHandle
        self.maxTxOctets = maxTxOctets
        self.maxTxTime = maxTxTime
        self.maxRxOctets = maxRxOctets
        self.maxRxTime = maxRxTime
    }

    public init(parameters p: borrowing ArraySlice<UInt8>) throws(HCIDecodingError) {
        try HCIWire.check(p, "LE Data Length Change", length: 10)
        connectionHandle = p.littleEndianUInt16(at: 0)
        maxTxOctets = p.littleEndianUInt16(at: 2)
        maxTxTime = p.littleEndianUInt16(at: 4)
        maxRxOctets = p.littleEndianUInt16(at: 6)
        maxRxTime = p.littleEndianUInt16(at: 8)
    }

    public var parametersLength: Int { 10 }

    public func encodeParameters(into writer: inout ByteWriter) {
        writer.write(connectionHandle)
        writer.write(maxTxOctets)
        writer.write(maxTxTime)
        writer.write(maxRxOctets)
        writer.write(maxRxTime)
    }
}
