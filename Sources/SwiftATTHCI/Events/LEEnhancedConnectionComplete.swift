import SwiftATTCore

/// HCI_LE_Enhanced_Connection_Complete [v1] (LE Meta subevent 0x0A): LE Connection
/// Complete plus the resolvable private addresses in use. Core 5.4 Vol 4 Part E §7.7.65.10.
public struct LEEnhancedConnectionComplete: LEMetaSubevent, Hashable {
    public static let subeventCode: UInt8 = 0x0A
    /// Status: success, or why it failed.
    public var status: HCIStatus
    /// Connection_Handle: the connection, as the controller numbers it.
    public var connectionHandle: UInt16
    /// Role: this device's role on the new connection.
    public var role: LERole
    /// Peer_Address_Type: an identity type when the controller resolved the peer.
    public var peerAddressType: LEAddressType
    /// The peer's identity (or plain) address.
    public var peerAddress: BluetoothAddress
    /// The resolvable private address this device used, or 00:00:00:00:00:00.
    public var localResolvablePrivateAddress: BluetoothAddress
    /// The resolvable private address the peer used, or 00:00:00:00:00:00.
    public var peerResolvablePrivateAddress: BluetoothAddress
    /// Connection_Interval, in units of 1.25 ms.
    public var connectionInterval: UInt16
    /// Peripheral_Latency: connection events the peripheral may skip.
    public var peripheralLatency: UInt16
    /// Supervision_Timeout, in units of 10 ms.
    public var supervisionTimeout: UInt16
    /// Central_Clock_Accuracy: 0x00 = 500 ppm … 0x07 = 20 ppm.
    public var centralClockAccuracy: UInt8

    /// HCI_LE_Enhanced_Connection_Complete [v1] with these parameters, as a controller (an emulated
    /// one, a test) sends it.
    public init(status: HCIStatus = .success, connectionHandle: UInt16, role: LERole, peerAddress: BluetoothAddress,
                peerAddressType: LEAddressType? = nil,
                localResolvablePrivateAddress: BluetoothAddress = BluetoothAddress(0, kind: .random),
                peerResolvablePrivateAddress: BluetoothAddress = BluetoothAddress(0, kind: .random),
                connectionInterval: UInt16, peripheralLatency: UInt16, supervisionTimeout: UInt16,
                centralClockAccuracy: UInt8 = 0) {
        self.status = status
        self.connectionHandle = connectionHandle
        self.role = role
        let type = peerAddressType ?? LEAddressType(peerAddress.kind)
        self.peerAddressType = type
        self.peerAddress = BluetoothAddress(peerAddress.value, kind: type.kind)
        self.localResolvablePrivateAddress = BluetoothAddress(localResolvablePrivateAddress.value, kind: .random)
        self.peerResolvablePrivateAddress = BluetoothAddress(peerResolvablePrivateAddress.value, kind: .random)
        self.connectionInterval = connectionInterval
        self.peripheralLatency = peripheralLatency
        self.supervisionTimeout = supervisionTimeout
        self.centralClockAccuracy = centralClockAccuracy
    }

    /// `connectionInterval` in milliseconds.
    public var connectionIntervalMilliseconds: Double { Double(connectionInterval) * 1.25 }
    /// `supervisionTimeout` in milliseconds.
    public var supervisionTimeoutMilliseconds: Double { Double(supervisionTimeout) * 10 }

    static let length = 30

    public init(parameters p: borrowing ArraySlice<UInt8>) throws(HCIDecodingError) {
        try HCIWire.check(p, "LE Enhanced Connection Complete", length: Self.length)
        try self.init(fieldsOf: p, "LE Enhanced Connection Complete")
    }

    /// Reads the 30 octets v1 and v2 share; the caller has checked the length.
    init(fieldsOf p: borrowing ArraySlice<UInt8>, _ what: String) throws(HCIDecodingError) {
        status = HCIStatus(p.byte(at: 0))
        connectionHandle = p.littleEndianUInt16(at: 1)
        role = try HCIField.decode(LERole.self, p.byte(at: 3), "\(what) Role")
        peerAddressType = try HCIField.decode(LEAddressType.self, p.byte(at: 4), "\(what) Peer_Address_Type")
        peerAddress = p.address(at: 5, kind: peerAddressType.kind)
        localResolvablePrivateAddress = p.address(at: 11, kind: .random)
        peerResolvablePrivateAddress = p.address(at: 17, kind: .random)
        connectionInterval = p.littleEndianUInt16(at: 23)
        peripheralLatency = p.littleEndianUInt16(at: 25)
        supervisionTimeout = p.littleEndianUInt16(at: 27)
        centralClockAccuracy = p.byte(at: 29)
    }

    public var parametersLength: Int { Self.length }

    public func encodeParameters(into writer: inout ByteWriter) {
        writer.write(status.rawValue)
        writer.write(connectionHandle)
        writer.write(role.rawValue)
        writer.write(peerAddressType.rawValue)
        peerAddress.encode(into: &writer)
        localResolvablePrivateAddress.encode(into: &writer)
        peerResolvablePrivateAddress.encode(into: &writer)
        writer.write(connectionInterval)
        writer.write(peripheralLatency)
        writer.write(supervisionTimeout)
        writer.write(centralClockAccuracy)
    }
}
