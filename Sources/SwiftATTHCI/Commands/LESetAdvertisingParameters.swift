import SwiftATTCore

/// HCI_LE_Set_Advertising_Parameters: how a legacy advertiser advertises.
/// Core 5.4 Vol 4 Part E §7.8.5.
public struct LESetAdvertisingParameters: HCICommand, Hashable {
    @inlinable public static var opcode: HCIOpcode { HCIOpcode(ogf: 0x08, ocf: 0x0006) }
    /// Advertising_Interval_Min, in units of 0.625 ms (0x0020–0x4000: 20 ms–10.24 s).
    public var advertisingIntervalMin: UInt16
    /// Advertising_Interval_Max, in units of 0.625 ms.
    public var advertisingIntervalMax: UInt16
    /// Advertising_Type: connectable, scannable, directed or not.
    public var advertisingType: LEAdvertisingType
    /// Own_Address_Type: which of this controller's addresses goes in the packets.
    public var ownAddressType: LEOwnAddressType
    /// Peer_Address_Type: the directed-advertising target's type (public or random only).
    public var peerAddressType: LEAddressType
    /// Peer_Address: used for directed advertising and with a resolving list.
    public var peerAddress: BluetoothAddress
    /// Advertising_Channel_Map: which of channels 37, 38 and 39 to advertise on.
    public var advertisingChannelMap: LEAdvertisingChannelMap
    /// Advertising_Filter_Policy: whose scan and connection requests to accept.
    public var advertisingFilterPolicy: LEAdvertisingFilterPolicy

    /// HCI_LE_Set_Advertising_Parameters with these parameters.
    public init(advertisingIntervalMin: UInt16, advertisingIntervalMax: UInt16,
                advertisingType: LEAdvertisingType = .advInd, ownAddressType: LEOwnAddressType = .random,
                peerAddress: BluetoothAddress = BluetoothAddress(0), peerAddressType: LEAddressType? = nil,
                advertisingChannelMap: LEAdvertisingChannelMap = .all,
                advertisingFilterPolicy: LEAdvertisingFilterPolicy = .acceptAll) {
        self.advertisingIntervalMin = advertisingIntervalMin
        self.advertisingIntervalMax = advertisingIntervalMax
        self.advertisingType = advertisingType
        self.ownAddressType = ownAddressType
        let type = peerAddressType ?? LEAddressType(peerAddress.kind)
        self.peerAddressType = type
        self.peerAddress = BluetoothAddress(peerAddress.value, kind: type.kind)
        self.advertisingChannelMap = advertisingChannelMap
        self.advertisingFilterPolicy = advertisingFilterPolicy
    }

    /// `advertisingIntervalMin` in milliseconds.
    public var advertisingIntervalMinMilliseconds: Double { Double(advertisingIntervalMin) * 0.625 }
    /// `advertisingIntervalMax` in milliseconds.
    public var advertisingIntervalMaxMilliseconds: Double { Double(advertisingIntervalMax) * 0.625 }

    public var parametersLength: Int { 15 }

    public func encodeParameters(into writer: inout ByteWriter) {
        writer.write(advertisingIntervalMin)
        writer.write(advertisingIntervalMax)
        writer.write(advertisingType.rawValue)
        writer.write(ownAddressType.rawValue)
        writer.write(peerAddressType.rawValue)
        peerAddress.encode(into: &writer)
        writer.write(advertisingChannelMap.rawValue)
        writer.write(advertisingFilterPolicy.rawValue)
    }

    public init(parameters p: borrowing ArraySlice<UInt8>) throws(HCIDecodingError) {
        let what = "LE Set Advertising Parameters"
        try HCIWire.check(p, "\(what) parameters", length: 15)
        advertisingIntervalMin = p.littleEndianUInt16(at: 0)
        advertisingIntervalMax = p.littleEndianUInt16(at: 2)
        advertisingType = try HCIField.decode(LEAdvertisingType.self, p.byte(at: 4), "\(what) Advertising_Type")
        ownAddressType = try HCIField.decode(LEOwnAddressType.self, p.byte(at: 5), "\(what) Own_Address_Type")
        peerAddressType = try HCIField.decode(LEAddressType.self, p.byte(at: 6), "\(what) Peer_Address_Type")
        peerAddress = p.address(at: 7, kind: peerAddressType.kind)
        advertisingChannelMap = try HCIField.decodeBits(
            LEAdvertisingChannelMap.self, p.byte(at: 13), known: .all, "\(what) Advertising_Channel_Map")
        advertisingFilterPolicy = try HCIField.decode(
            LEAdvertisingFilterPolicy.self, p.byte(at: 14), "\(what) Advertising_Filter_Policy")
    }
}
