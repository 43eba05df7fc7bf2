import SwiftATTCore

/// HCI_LE_Connection_Update_Complete (LE Meta subevent 0x03): a connection's parameters
/// changed, or changing them failed. Core 5.4 Vol 4 Part E §7.7.65.3.
public struct LEConnectionUpdateComplete: LEMetaSubevent, Hashable {
    public static let subeventCode: UInt8 = 0x03
    /// Status: success, or why it failed.
    public var status: HCIStatus
    /// Connection_Handle: the connection, as the controller numbers it.
    public var connectionHandle: UInt16
    /// Connection_Interval, in units of 1.25 ms.
    public var connectionInterval: UInt16
    /// Peripheral_Latency: connection events the peripheral may skip.
    public var peripheralLatency: UInt16
    /// Supervision_Timeout, in units of 10 ms.
    public var supervisionTimeout: UInt16

    /// HCI_LE_Connection_Update_Complete with these parameters, as a controller (an emulated one, a
    /// test) sends it.
    public init(status: HCIStatus = .success, connectionHandle: UInt16, connectionInterval: UInt16,
                peripheralLatency: UInt16, supervisionTimeout: UInt16) {
        self.status = status
        self.connectionHandle = connectionHandle
        self.connectionInterval = connectionInterval
        self.peripheralLatency = peripheralLatency
        self.supervisionTimeout = supervisionTimeout
    }

    /// `connectionInterval` in milliseconds.
    public var connectionIntervalMilliseconds: Double { Double(connectionInterval) * 1.25 }
    /// `supervisionTimeout` in milliseconds.
    public var supervisionTimeoutMilliseconds: Double { Double(supervisionTimeout) * 10 }

    public init(parameters p: borrowing ArraySlice<UInt8>) throws(HCIDecodingError) {
        try HCIWire.check(p, "LE Connection Update Complete", length: 9)
        status = HCIStatus(p.byte(at: 0))
        connectionHandle = p.littleEndianUInt16(at: 1)
        connectionInterval = p.littleEndianUInt16(at: 3)
        peripheralLatency = p.littleEndianUInt16(at: 5)
        supervisionTimeout = p.littleEndianUInt16(at: 7)
    }

    public var parametersLength: Int { 9 }

    public func encodeParameters(into writer: inout ByteWriter) {
        writer.write(status.rawValue)
        writer.write(connectionHandle)
        writer.write(connectionInterval)
        writer.write(peripheralLatency)
        writer.write(supervisionTimeout)
    }
}
