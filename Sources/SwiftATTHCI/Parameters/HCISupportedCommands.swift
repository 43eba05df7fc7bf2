/// The 64-octet bitmap of commands a controller supports (Supported_Commands), as Read
/// Local Supported Commands returns it. Core 5.4 Vol 4 Part E §6.27 lists octet and bit
/// for every command.
///
/// Decide between legacy and extended advertising/scanning/initiating from this bitmap,
/// as the spec says (some controllers' bits lie: see BENCH.md quirk 8).
public struct HCISupportedCommands: Sendable, Hashable {
    /// Exactly 64 octets.
    public let octets: [UInt8]

    /// A bitmap from its octets; missing octets read as zero, extra octets are dropped.
    public init(octets: some Collection<UInt8>) {
        var o = Array(octets.prefix(64))
        if o.count < 64 { o.append(contentsOf: repeatElement(0, count: 64 - o.count)) }
        self.octets = o
    }

    /// One command's place in the bitmap.
    public struct Command: Sendable, Hashable {
        /// The octet of the bitmap, 0–63.
        public var octet: Int
        /// The bit within the octet, 0–7.
        public var bit: Int
        /// A command at `bit` of `octet`.
        public init(octet: Int, bit: Int) {
            self.octet = octet
            self.bit = bit
        }

        /// Set Event Mask: octet 5, bit 6.
        public static let setEventMask = Command(octet: 5, bit: 6)
        /// Reset: octet 5, bit 7.
        public static let reset = Command(octet: 5, bit: 7)
        /// Read Local Version Information: octet 14, bit 3.
        public static let readLocalVersionInformation = Command(octet: 14, bit: 3)
        /// Read Local Supported Features: octet 14, bit 5.
        public static let readLocalSupportedFeatures = Command(octet: 14, bit: 5)
        /// Read Buffer Size: octet 14, bit 7.
        public static let readBufferSize = Command(octet: 14, bit: 7)
        /// Read BD_ADDR: octet 15, bit 1.
        public static let readBDADDR = Command(octet: 15, bit: 1)
        /// Read Encryption Key Size: octet 20, bit 4.
        public static let readEncryptionKeySize = Command(octet: 20, bit: 4)
        /// Set Event Mask Page 2: octet 22, bit 2.
        public static let setEventMaskPage2 = Command(octet: 22, bit: 2)
        /// LE Set Event Mask: octet 25, bit 0.
        public static let leSetEventMask = Command(octet: 25, bit: 0)
        /// LE Read Buffer Size: octet 25, bit 1.
        public static let leReadBufferSize = Command(octet: 25, bit: 1)
        /// LE Read Local Supported Features: octet 25, bit 2.
        public static let leReadLocalSupportedFeatures = Command(octet: 25, bit: 2)
        /// LE Set Random Address: octet 25, bit 4.
        public static let leSetRandomAddress = Command(octet: 25, bit: 4)
        /// LE Set Advertising Parameters: octet 25, bit 5.
        public static let leSetAdvertisingParameters = Command(octet: 25, bit: 5)
        /// LE Set Advertising Data: octet 25, bit 7.
        public static let leSetAdvertisingData = Command(octet: 25, bit: 7)
        /// LE Set Scan Response Data: octet 26, bit 0.
        public static let leSetScanResponseData = Command(octet: 26, bit: 0)
        /// LE Set Advertising Enable: octet 26, bit 1.
        public static let leSetAdvertisingEnable = Command(octet: 26, bit: 1)
        /// LE Set Scan Parameters: octet 26, bit 2.
        public static let leSetScanParameters = Command(octet: 26, bit: 2)
        /// LE Set Scan Enable: octet 26, bit 3.
        public static let leSetScanEnable = Command(octet: 26, bit: 3)
        /// LE Create Connection: octet 26, bit 4.
        public static let leCreateConnection = Command(octet: 26, bit: 4)
        /// LE Create Connection Cancel: octet 26, bit 5.
        public static let leCreateConnectionCancel = Command(octet: 26, bit: 5)
        /// LE Clear Filter Accept List: octet 26, bit 7.
        public static let leClearFilterAcceptList = Command(octet: 26, bit: 7)
        /// LE Add Device To Filter Accept List: octet 27, bit 0.
        public static let leAddDeviceToFilterAcceptList = Command(octet: 27, bit: 0)
        /// LE Connection Update: octet 27, bit 2.
        public static let leConnectionUpdate = Command(octet: 27, bit: 2)
        /// LE Read Remote Features: octet 27, bit 5.
        public static let leReadRemoteFeatures = Command(octet: 27, bit: 5)
        /// LE Encrypt: octet 27, bit 6.
        public static let leEncrypt = Command(octet: 27, bit: 6)
        /// LE Rand: octet 27, bit 7.
        public static let leRand = Command(octet: 27, bit: 7)
        /// LE Enable Encryption: octet 28, bit 0.
        public static let leEnableEncryption = Command(octet: 28, bit: 0)
        /// LE Long Term Key Request Reply: octet 28, bit 1.
        public static let leLongTermKeyRequestReply = Command(octet: 28, bit: 1)
        /// LE Long Term Key Request Negative Reply: octet 28, bit 2.
        public static let leLongTermKeyRequestNegativeReply = Command(octet: 28, bit: 2)
        /// LE Set Data Length: octet 33, bit 6.
        public static let leSetDataLength = Command(octet: 33, bit: 6)
        /// LE Read Suggested Default Data Length: octet 33, bit 7.
        public static let leReadSuggestedDefaultDataLength = Command(octet: 33, bit: 7)
        /// LE Write Suggested Default Data Length: octet 34, bit 0.
        public static let leWriteSuggestedDefaultDataLength = Command(octet: 34, bit: 0)
        /// LE Add Device To Resolving List: octet 34, bit 3.
        public static let leAddDeviceToResolvingList = Command(octet: 34, bit: 3)
        /// LE Remove Device From Resolving List: octet 34, bit 4.
        public static let leRemoveDeviceFromResolvingList = Command(octet: 34, bit: 4)
        /// LE Clear Resolving List: octet 34, bit 5.
        public static let leClearResolvingList = Command(octet: 34, bit: 5)
        /// LE Read Resolving List Size: octet 34, bit 6.
        public static let leReadResolvingListSize = Command(octet: 34, bit: 6)
        /// LE Read Peer Resolvable Address: octet 34, bit 7.
        public static let leReadPeerResolvableAddress = Command(octet: 34, bit: 7)
        /// LE Read Local Resolvable Address: octet 35, bit 0.
        public static let leReadLocalResolvableAddress = Command(octet: 35, bit: 0)
        /// LE Set Address Resolution Enable: octet 35, bit 1.
        public static let leSetAddressResolutionEnable = Command(octet: 35, bit: 1)
        /// LE Set Resolvable Private Address Timeout: octet 35, bit 2.
        public static let leSetResolvablePrivateAddressTimeout = Command(octet: 35, bit: 2)
        /// LE Read Maximum Data Length: octet 35, bit 3.
        public static let leReadMaximumDataLength = Command(octet: 35, bit: 3)
        /// LE Read PHY: octet 35, bit 4.
        public static let leReadPHY = Command(octet: 35, bit: 4)
        /// LE Set Default PHY: octet 35, bit 5.
        public static let leSetDefaultPHY = Command(octet: 35, bit: 5)
        /// LE Set PHY: octet 35, bit 6.
        public static let leSetPHY = Command(octet: 35, bit: 6)
        /// LE Set Advertising Set Random Address: octet 36, bit 1.
        public static let leSetAdvertisingSetRandomAddress = Command(octet: 36, bit: 1)
        /// LE Set Extended Advertising Parameters: octet 36, bit 2.
        public static let leSetExtendedAdvertisingParameters = Command(octet: 36, bit: 2)
        /// LE Set Extended Advertising Data: octet 36, bit 3.
        public static let leSetExtendedAdvertisingData = Command(octet: 36, bit: 3)
        /// LE Set Extended Scan Response Data: octet 36, bit 4.
        public static let leSetExtendedScanResponseData = Command(octet: 36, bit: 4)
        /// LE Set Extended Advertising Enable: octet 36, bit 5.
        public static let leSetExtendedAdvertisingEnable = Command(octet: 36, bit: 5)
        /// LE Read Maximum Advertising Data Length: octet 36, bit 6.
        public static let leReadMaximumAdvertisingDataLength = Command(octet: 36, bit: 6)
        /// LE Read Number Of Supported Advertising Sets: octet 36, bit 7.
        public static let leReadNumberOfSupportedAdvertisingSets = Command(octet: 36, bit: 7)
        /// LE Remove Advertising Set: octet 37, bit 0.
        public static let leRemoveAdvertisingSet = Command(octet: 37, bit: 0)
        /// LE Clear Advertising Sets: octet 37, bit 1.
        public static let leClearAdvertisingSets = Command(octet: 37, bit: 1)
        /// LE Set Extended Scan Parameters: octet 37, bit 5.
        public static let leSetExtendedScanParameters = Command(octet: 37, bit: 5)
        /// LE Set Extended Scan Enable: octet 37, bit 6.
        public static let leSetExtendedScanEnable = Command(octet: 37, bit: 6)
        /// LE Extended Create Connection: octet 37, bit 7.
        public static let leExtendedCreateConnection = Command(octet: 37, bit: 7)
        /// LE Set Privacy Mode: octet 39, bit 2.
        public static let leSetPrivacyMode = Command(octet: 39, bit: 2)
        /// LE Read Buffer Size [v2]: octet 41, bit 5.
        public static let leReadBufferSizeV2 = Command(octet: 41, bit: 5)
    }

    /// Whether bit `bit` (0–7) of octet `octet` (0–63) is set; false outside the bitmap.
    public func supports(octet: Int, bit: Int) -> Bool {
        guard (0..<64).contains(octet), (0..<8).contains(bit) else { return false }
        return octets[octet] & (1 << UInt8(bit)) != 0
    }

    /// Whether the controller supports `command`.
    public func supports(_ command: Command) -> Bool { supports(octet: command.octet, bit: command.bit) }

    /// Extended advertising (octet 36 bit 2): use LE Set Extended Advertising Parameters
    /// and friends instead of the legacy commands.
    public var supportsLESetExtendedAdvertisingParameters: Bool { supports(.leSetExtendedAdvertisingParameters) }
    /// Extended scanning (octet 37 bit 5).
    public var supportsLESetExtendedScanParameters: Bool { supports(.leSetExtendedScanParameters) }
    /// Extended initiating (octet 37 bit 7).
    public var supportsLEExtendedCreateConnection: Bool { supports(.leExtendedCreateConnection) }
}
