import SwiftATTCore

/// HCI_LE_Create_Connection: initiate a connection over legacy advertising; answered by
/// Command Status, then LE (Enhanced) Connection Complete. Core 5.4 Vol 4 Part E §7.8.12.
public struct LECreateConnection: HCICommand, Hashable {
    @inlinable public static var opcode: HCIOpcode { HCIOpcode(ogf: 0x08, ocf: 0x000D) }
    public static let completion = HCICommandCompletion.commandStatus
    /// LE_Scan_Interval, in units of 0.625 ms.
    public var scanInterval: UInt16
    /// LE_Scan_Window, in units of 0.625 ms.
    public var scanWindow: UInt16
    /// Initiator_Filter_Policy: connect to `peerAddress`, or to any device on the Filter Accept
    /// List.
    public var initiatorFilterPolicy: LEInitiatorFilterPolicy
    /// Peer_Address_Type: public or random, or an identity address to resolve.
    public var peerAddressType: LEAddressType
    /// Peer_Address: the device to connect to.
    public var peerAddress: BluetoothAddress
    /// Own_Address_Type: which of this controller's addresses goes in the packets.
    public var ownAddressType: LEOwnAddressType
    /// The connection interval, latency, supervision timeout and connection event lengths to ask
    /// for.
    public var connectionParameters: LEConnectionParameters

    /// `peerAddressType` defaults to the address's kind; give it for identity addresses.
    public init(scanInterval: UInt16, scanWindow: UInt16, initiatorFilterPolicy: LEInitiatorFilterPolicy = .peerAddress,
                peerAddress: BluetoothAddress, peerAddressType: LEAddressType? = nil,
                ownAddressType: LEOwnAddressType = .random, connectionParameters: LEConnectionParameters) {
        self.scanInterval = scanInterval
        self.scanWindow = scanWindow
        self.initiatorFilterPolicy = initiatorFilterPolicy
        let type = peerAddressType ?? LEAddressType(peerAddress.kind)
        self.peerAddressType = type
        self.peerAddress = BluetoothAddress(peerAddress.value, kind: type.kind)
        self.ownAddressType = ownAddressType
        self.connectionParameters = connectionParameters
    }

    /// `scanInterval` in milliseconds.
    public var scanIntervalMilliseconds: Double { Double(scanInterval) * 0.625 }
    /// `scanWindow` in milliseconds.
    public var scanWindowMilliseconds: Double { Double(scanWindow) * 0.625 }

    public var parametersLength: Int { 25 }

    public func encodeParameters(into writer: inout ByteWriter) {
        writer.write(scanInterval)
        writer.write(scanWindow)
        writer.write(initiatorFilterPolicy.rawValue)
        writer.write(peerAddressType.rawValue)
        peerAddress.encode(into: &writer)
        writer.write(ownAddressType.rawValue)
        connectionParameters.encode(into: &writer)
    }

    public init(parameters p: borrowing ArraySlice<UInt8>) throws(HCIDecodingError) {
        let what = "LE Create Connection"
        try HCIWire.check(p, "\(what) parameters", length: 25)
        scanInterval = p.littleEndianUInt16(at: 0)
        scanWindow = p.littleEndianUInt16(at: 2)
        initiatorFilterPolicy = try HCIField.decode(
            LEInitiatorFilterPolicy.self, p.byte(at: 4), "\(what) Initiator_Filter_Policy")
        peerAddressType = try HCIField.decode(LEAddressType.self, p.byte(at: 5), "\(what) Peer_Address_Type")
        peerAddress = p.address(at: 6, kind: peerAddressType.kind)
        ownAddressType = try HCIField.decode(LEOwnAddressType.self, p.byte(at: 12), "\(what) Own_Address_Type")
        connectionParameters = LEConnectionParameters(p, at: 13)
    }
}
