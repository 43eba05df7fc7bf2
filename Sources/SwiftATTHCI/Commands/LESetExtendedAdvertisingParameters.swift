import SwiftATTCore

/// HCI_LE_Set_Extended_Advertising_Parameters [v1]: create or change an extended
/// advertising set. Core 5.4 Vol 4 Part E §7.8.53.
public struct LESetExtendedAdvertisingParameters: HCICommand, Hashable {
    @inlinable public static var opcode: HCIOpcode { HCIOpcode(ogf: 0x08, ocf: 0x0036) }
    /// Advertising_TX_Power that leaves the choice to the controller.
    public static let noTxPowerPreference: Int8 = 0x7F

    /// Advertising_Handle: which advertising set.
    public var advertisingHandle: UInt8
    /// Advertising_Event_Properties: connectable, scannable, directed, legacy.
    public var advertisingEventProperties: LEAdvertisingEventProperties
    /// Primary_Advertising_Interval_Min, 24 bits, in units of 0.625 ms (at least 0x000020).
    public var primaryAdvertisingIntervalMin: UInt32
    /// Primary_Advertising_Interval_Max, 24 bits, in units of 0.625 ms.
    public var primaryAdvertisingIntervalMax: UInt32
    /// Primary_Advertising_Channel_Map: which of channels 37, 38 and 39 to advertise on.
    public var primaryAdvertisingChannelMap: LEAdvertisingChannelMap
    /// Own_Address_Type: which of this controller's addresses goes in the packets.
    public var ownAddressType: LEOwnAddressType
    /// Peer_Address_Type: public or random, or an identity address to resolve.
    public var peerAddressType: LEAddressType
    /// Peer_Address: the device directed advertising is for.
    public var peerAddress: BluetoothAddress
    /// Advertising_Filter_Policy: whose scan and connection requests to accept.
    public var advertisingFilterPolicy: LEAdvertisingFilterPolicy
    /// Advertising_TX_Power in dBm (−127…20), or `noTxPowerPreference`.
    public var advertisingTxPower: Int8
    /// Primary_Advertising_PHY: LE 1M or LE Coded.
    public var primaryAdvertisingPHY: LEPHY
    /// Secondary_Advertising_Max_Skip: advertising events the AUX_ADV_IND may skip.
    public var secondaryAdvertisingMaxSkip: UInt8
    /// Secondary_Advertising_PHY: the PHY of the auxiliary packets.
    public var secondaryAdvertisingPHY: LEPHY
    /// Advertising_SID (0x00–0x0F).
    public var advertisingSID: UInt8
    /// Scan_Request_Notification_Enable: report scan requests received.
    public var scanRequestNotificationEnable: Bool

    /// HCI_LE_Set_Extended_Advertising_Parameters [v1] with these parameters.
    public init(advertisingHandle: UInt8, advertisingEventProperties: LEAdvertisingEventProperties,
                primaryAdvertisingIntervalMin: UInt32, primaryAdvertisingIntervalMax: UInt32,
                primaryAdvertisingChannelMap: LEAdvertisingChannelMap = .all, ownAddressType: LEOwnAddressType = .random,
                peerAddress: BluetoothAddress = BluetoothAddress(0), peerAddressType: LEAddressType? = nil,
                advertisingFilterPolicy: LEAdvertisingFilterPolicy = .acceptAll,
                advertisingTxPower: Int8 = LESetExtendedAdvertisingParameters.noTxPowerPreference,
                primaryAdvertisingPHY: LEPHY = .le1M, secondaryAdvertisingMaxSkip: UInt8 = 0,
                secondaryAdvertisingPHY: LEPHY = .le1M, advertisingSID: UInt8 = 0,
                scanRequestNotificationEnable: Bool = false) {
        self.advertisingHandle = advertisingHandle
        self.advertisingEventProperties = advertisingEventProperties
        self.primaryAdvertisingIntervalMin = primaryAdvertisingIntervalMin & 0xFF_FFFF
        self.primaryAdvertisingIntervalMax = primaryAdvertisingIntervalMax & 0xFF_FFFF
        self.primaryAdvertisingChannelMap = primaryAdvertisingChannelMap
        self.ownAddressType = ownAddressType
        let type = peerAddressType ?? LEAddressType(peerAddress.kind)
        self.peerAddressType = type
        self.peerAddress = BluetoothAddress(peerAddress.value, kind: type.kind)
        self.advertisingFilterPolicy = advertisingFilterPolicy
        self.advertisingTxPower = advertisingTxPower
        self.primaryAdvertisingPHY = primaryAdvertisingPHY
        self.secondaryAdvertisingMaxSkip = secondaryAdvertisingMaxSkip
        self.secondaryAdvertisingPHY = secondaryAdvertisingPHY
        self.advertisingSID = advertisingSID
        self.scanRequestNotificationEnable = scanRequestNotificationEnable
    }

    /// `primaryAdvertisingIntervalMin` in milliseconds.
    public var primaryAdvertisingIntervalMinMilliseconds: Double { Double(primaryAdvertisingIntervalMin) * 0.625 }
    /// `primaryAdvertisingIntervalMax` in milliseconds.
    public var primaryAdvertisingIntervalMaxMilliseconds: Double { Double(primaryAdvertisingIntervalMax) * 0.625 }

    public var parametersLength: Int { 25 }

    public func encodeParameters(into writer: inout ByteWriter) {
        writer.write(advertisingHandle)
        writer.write(advertisingEventProperties.rawValue)
        writer.writeUInt24(primaryAdvertisingIntervalMin)
        writer.writeUInt24(primaryAdvertisingIntervalMax)
        writer.write(primaryAdvertisingChannelMap.rawValue)
        writer.write(ownAddressType.rawValue)
        writer.write(peerAddressType.rawValue)
        peerAddress.encode(into: &writer)
        writer.write(advertisingFilterPolicy.rawValue)
        writer.write(UInt8(bitPattern: advertisingTxPower))
        writer.write(primaryAdvertisingPHY.rawValue)
        writer.write(secondaryAdvertisingMaxSkip)
        writer.write(secondaryAdvertisingPHY.rawValue)
        writer.write(advertisingSID)
        writer.write(scanRequestNotificationEnable ? UInt8(1) : 0)
    }

    public init(parameters p: borrowing ArraySlice<UInt8>) throws(HCIDecodingError) {
        let what = "LE Set Extended Advertising Parameters"
        try HCIWire.check(p, "\(what) parameters", length: 25)
        advertisingHandle = p.byte(at: 0)
        advertisingEventProperties = try HCIField.decodeBits(
            LEAdvertisingEventProperties.self, p.littleEndianUInt16(at: 1), known: .allDefined,
            "\(what) Advertising_Event_Properties")
        primaryAdvertisingIntervalMin = p.littleEndianUInt24(at: 3)
        primaryAdvertisingIntervalMax = p.littleEndianUInt24(at: 6)
        primaryAdvertisingChannelMap = try HCIField.decodeBits(
            LEAdvertisingChannelMap.self, p.byte(at: 9), known: .all, "\(what) Primary_Advertising_Channel_Map")
        ownAddressType = try HCIField.decode(LEOwnAddressType.self, p.byte(at: 10), "\(what) Own_Address_Type")
        peerAddressType = try HCIField.decode(LEAddressType.self, p.byte(at: 11), "\(what) Peer_Address_Type")
        peerAddress = p.address(at: 12, kind: peerAddressType.kind)
        advertisingFilterPolicy = try HCIField.decode(
            LEAdvertisingFilterPolicy.self, p.byte(at: 18), "\(what) Advertising_Filter_Policy")
        advertisingTxPower = p.int8(at: 19)
        primaryAdvertisingPHY = try HCIField.decode(LEPHY.self, p.byte(at: 20), "\(what) Primary_Advertising_PHY")
        secondaryAdvertisingMaxSkip = p.byte(at: 21)
        secondaryAdvertisingPHY = try HCIField.decode(LEPHY.self, p.byte(at: 22), "\(what) Secondary_Advertising_PHY")
        advertisingSID = p.byte(at: 23)
        scanRequestNotificationEnable = try HCIField.decodeBool(p.byte(at: 24), "\(what) Scan_Request_Notification_Enable")
    }

    public struct ReturnParameters: HCIReturnParameters, ByteEncodable, Hashable {
        public var status: HCIStatus
        /// Selected_TX_Power, in dBm.
        public var selectedTxPower: Int8

        /// Return parameters as a controller returns them (an emulated one, a test).
        public init(status: HCIStatus, selectedTxPower: Int8) {
            self.status = status
            self.selectedTxPower = selectedTxPower
        }

        public init(returnParameters: borrowing ArraySlice<UInt8>) throws(HCIDecodingError) {
            let p = try HCIWire.returnBlock(
                returnParameters, "LE Set Extended Advertising Parameters return parameters", length: 2)
            status = HCIStatus(p.byte(at: 0))
            selectedTxPower = p.int8(at: 1)
        }

        public var encodedLength: Int { 2 }

        public func encode(into writer: inout ByteWriter) {
            writer.write(status.rawValue)
            writer.write(UInt8(bitPattern: selectedTxPower))
        }
    }
}
