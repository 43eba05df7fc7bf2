import SwiftATTCore

/// HCI_LE_Connection_Complete (LE Meta subevent 0x01): a connection was created, or
/// creating one failed. Core 5.4 Vol 4 Part E §7.7.65.1.
public struct LEConnectionComplete: LEMetaSubevent, Hashable {
    public static let subeventCode: UInt8 = 0x01
    /// Status: success, or why it failed.
    public var status: HCIStatus
    /// Connection_Handle: the connection, as the controller numbers it.
    public var connectionHandle: UInt16
    /// Role: this device's role on the new connection.
    public var role: LERole
    /// Peer_Address_Type: public or random only in this event.
    public var peerAddressType: LEAddressType
    /// Peer_Address: the peer's address.
    public var peerAddress: BluetoothAddress
    /// Connection_Interval, in units of 1.25 ms.
    public var connectionInterval: UInt16
    /// Peripheral_Latency: connection events the peripheral may skip.
    public var peripheralLatency: UInt16
    /// Supervision_Timeout, in units of 10 ms.
    public var supervisionTimeout: UInt16
    /// Central_Clock_Accuracy: 0x00 = 500 ppm … 0x07 = 20 ppm.
    public var centralClockAccuracy: UInt8

    /// HCI_LE_Connection_Complete with these parameters, as a controller (an emulated one, a test)
    /// sends it.
    public init(status: HCIStatus = .success, connectionHandle: UInt16, role: LERole, peerAddress: BluetoothAddress,
                peerAddressType: LEAddressType? = nil, connectionInterval: UInt16, peripheralLatency: UInt16,
                supervisionTimeout: UInt16, centralClockAccuracy: UInt8 = 0) {
        self.status = status
        self.connectionHandle = connectionHandle
        self.role = role
        let type = peerAddressType ?? LEAddressType(peerAddress.kind)
        self.peerAddressType = type
        self.peerAddress = BluetoothAddress(peerAddress.value, kind: type.kind)
        self.connectionInterval = connectionInterval
        self.peripheralLatency = peripheralLatency
        self.supervisionTimeout = supervisionTimeout
        self.centralClockAccuracy = centralClockAccuracy
    }

    /// `connectionInterval` in milliseconds.
    public var connectionIntervalMilliseconds: Double { Double(connectionInterval) * 1.25 }
    /// `supervisionTimeout` in milliseconds.
    public var supervisionTimeoutMilliseconds: Double { Double(supervisionTimeout) * 10 }

    public init(parameters p: borrowing ArraySlice<UInt8>) throws(HCIDecodingError) {
        let what = "LE Connection Complete"
        try HCIWire.check(p, what, length: 18)
        status = HCIStatus(p.byte(at: 0))
        connectionHandle = p.littleEndianUInt16(at: 1)
        role = try HCIField.decode(LERole.self, p.byte(at: 3), "\(what) Role")
        peerAddressType = try HCIField.decode(LEAddressType.self, p.byte(at: 4), "\(what) Peer_Address_Type")
        peerAddress = p.address(at: 5, kind: peerAddressType.kind)
        connectionInterval = p.littleEndianUInt16(at: 11)
        peripheralLatency = p.littleEndianUInt16(at: 13)
        supervisionTimeout = p.littleEndianUInt16(at: 15)
        centralClockAccuracy = p.byte(at: 17)
    }

    public var parametersLength: Int { 18 }

    public func encodeParameters(into writer: inout ByteWriter) {
        writer.write(status.rawValue)
        writer.write(connectionHandle)
        writer.write(role.rawValue)
        writer.write(peerAddressType.rawValue)
        peerAddress.encode(into: &writer)
        writer.write(connectionInterval)
        writer.write(peripheralLatency)
        writer.write(supervisionTimeout)
        writer.write(centralClockAccuracy)
    }
}
