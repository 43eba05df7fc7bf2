import SwiftATTCore

/// HCI_LE_Extended_Create_Connection [v1]: initiate a connection over extended (or
/// legacy) advertising, with parameters per PHY; answered by Command Status, then LE
/// Enhanced Connection Complete (Bumble sends the legacy LE Connection Complete:
/// BENCH.md quirk 7). Core 5.4 Vol 4 Part E §7.8.66.
///
/// Initiating_PHYs (bit 0 LE 1M, bit 1 LE 2M, bit 2 LE Coded) says which PHYs' 16-octet
/// blocks follow, in that order; here it is implied by which of `le1M`, `le2M`, `leCoded`
/// are set. LE 2M only gives connection parameters (nobody scans on 2M).
public struct LEExtendedCreateConnection: HCICommand, Hashable {
    @inlinable public static var opcode: HCIOpcode { HCIOpcode(ogf: 0x08, ocf: 0x0043) }
    public static let completion = HCICommandCompletion.commandStatus

    /// The scan and connection parameters for one PHY.
    public struct PHYParameters: Sendable, Hashable {
        /// Scan_Interval, in units of 0.625 ms.
        public var scanInterval: UInt16
        /// Scan_Window, in units of 0.625 ms.
        public var scanWindow: UInt16
        /// The connection interval, latency, supervision timeout and connection event lengths to
        /// ask for.
        public var connectionParameters: LEConnectionParameters

        /// Scan and connection parameters for one PHY.
        public init(scanInterval: UInt16, scanWindow: UInt16, connectionParameters: LEConnectionParameters) {
            self.scanInterval = scanInterval
            self.scanWindow = scanWindow
            self.connectionParameters = connectionParameters
        }

        /// `scanInterval` in milliseconds.
        public var scanIntervalMilliseconds: Double { Double(scanInterval) * 0.625 }
        /// `scanWindow` in milliseconds.
        public var scanWindowMilliseconds: Double { Double(scanWindow) * 0.625 }

        static let encodedLength = 4 + LEConnectionParameters.encodedLength

        init(_ p: borrowing ArraySlice<UInt8>, at offset: Int) {
            scanInterval = p.littleEndianUInt16(at: offset)
            scanWindow = p.littleEndianUInt16(at: offset + 2)
            connectionParameters = LEConnectionParameters(p, at: offset + 4)
        }
    }

    /// Initiator_Filter_Policy: connect to `peerAddress`, or to any device on the Filter Accept
    /// List.
    public var initiatorFilterPolicy: LEInitiatorFilterPolicy
    /// Own_Address_Type: which of this controller's addresses goes in the packets.
    public var ownAddressType: LEOwnAddressType
    /// Peer_Address_Type: public or random, or an identity address to resolve.
    public var peerAddressType: LEAddressType
    /// Peer_Address: the device to connect to.
    public var peerAddress: BluetoothAddress
    /// Scan and connection parameters for LE 1M; `nil`: do not initiate on it.
    public var le1M: PHYParameters?
    /// Connection parameters for LE 2M; `nil`: not on it.
    public var le2M: PHYParameters?
    /// Scan and connection parameters for LE Coded; `nil`: do not initiate on it.
    public var leCoded: PHYParameters?

    /// HCI_LE_Extended_Create_Connection [v1] with these parameters.
    public init(initiatorFilterPolicy: LEInitiatorFilterPolicy = .peerAddress, ownAddressType: LEOwnAddressType = .random,
                peerAddress: BluetoothAddress, peerAddressType: LEAddressType? = nil,
                le1M: PHYParameters?, le2M: PHYParameters? = nil, leCoded: PHYParameters? = nil) {
        self.initiatorFilterPolicy = initiatorFilterPolicy
        self.ownAddressType = ownAddressType
        let type = peerAddressType ?? LEAddressType(peerAddress.kind)
        self.peerAddressType = type
        self.peerAddress = BluetoothAddress(peerAddress.value, kind: type.kind)
        self.le1M = le1M
        self.le2M = le2M
        self.leCoded = leCoded
    }

    /// Initiating_PHYs as sent.
    public var initiatingPHYs: LEPHYs {
        var phys: LEPHYs = []
        if le1M != nil { phys.insert(.le1M) }
        if le2M != nil { phys.insert(.le2M) }
        if leCoded != nil { phys.insert(.leCoded) }
        return phys
    }

    var entries: [PHYParameters] { [le1M, le2M, leCoded].compactMap { $0 } }

    public var parametersLength: Int { 10 + PHYParameters.encodedLength * entries.count }

    public func encodeParameters(into writer: inout ByteWriter) {
        writer.write(initiatorFilterPolicy.rawValue)
        writer.write(ownAddressType.rawValue)
        writer.write(peerAddressType.rawValue)
        peerAddress.encode(into: &writer)
        writer.write(initiatingPHYs.rawValue)
        for e in entries {
            writer.write(e.scanInterval)
            writer.write(e.scanWindow)
            e.connectionParameters.encode(into: &writer)
        }
    }

    public init(parameters p: borrowing ArraySlice<UInt8>) throws(HCIDecodingError) {
        let what = "LE Extended Create Connection"
        try HCIWire.check(p, "\(what) parameters", atLeast: 10)
        let phys = try HCIField.decodeBits(LEPHYs.self, p.byte(at: 9), known: .all, "\(what) Initiating_PHYs")
        let count = phys.rawValue.nonzeroBitCount
        try HCIWire.check(p, "\(what) parameters (\(count) PHYs)", length: 10 + PHYParameters.encodedLength * count)
        initiatorFilterPolicy = try HCIField.decode(
            LEInitiatorFilterPolicy.self, p.byte(at: 0), "\(what) Initiator_Filter_Policy")
        ownAddressType = try HCIField.decode(LEOwnAddressType.self, p.byte(at: 1), "\(what) Own_Address_Type")
        peerAddressType = try HCIField.decode(LEAddressType.self, p.byte(at: 2), "\(what) Peer_Address_Type")
        peerAddress = p.address(at: 3, kind: peerAddressType.kind)
        var offset = 10
        le1M = nil
        le2M = nil
        leCoded = nil
        if phys.contains(.le1M) { le1M = PHYParameters(p, at: offset); offset += PHYParameters.encodedLength }
        if phys.contains(.le2M) { le2M = PHYParameters(p, at: offset); offset += PHYParameters.encodedLength }
        if phys.contains(.leCoded) { leCoded = PHYParameters(p, at: offset) }
    }
}
