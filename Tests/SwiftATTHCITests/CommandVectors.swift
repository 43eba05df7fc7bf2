import SwiftATTCore
import SwiftATTHCI
import Testing

/// One command's parameters worked by hand from Core 5.4 Vol 4 Part E §7 (or copied from
/// Fixtures/captures/gatt-mtu247-central.btsnoop, marked "capture"), and the typed value
/// they mean.
struct CommandVector: Sendable, CustomTestStringConvertible {
    let name: String
    let hex: String
    let type: any HCICommand.Type
    let command: any HCICommand
    /// Whether a decoded command equals `command` (compared as the concrete type).
    let matches: @Sendable (any HCICommand) -> Bool

    init<C: HCICommand & Hashable>(_ name: String, _ command: C, _ hex: String) {
        self.name = name
        self.hex = hex
        type = C.self
        self.command = command
        matches = { ($0 as? C) == command }
    }

    var parameters: [UInt8] { bytes(hex) }
    var testDescription: String { name }
}

private let connection = LEConnectionParameters(
    intervalMin: 0x000C, intervalMax: 0x0018, maxLatency: 0, supervisionTimeout: 0x0048)
private let key = UInt128(0x0F0E_0D0C_0B0A_0908_0706_0504_0302_0100)
/// Core 5.4 Vol 3 Part H Appendix D.7: the IRK of the ah() example.
private let sampleIRK = UInt128(0xEC02_34A3_57C8_AD05_3410_10A6_0A39_7D9B)

extension CommandVector {
    static let all: [CommandVector] = [
        // Controller & baseband, informational.
        CommandVector("Reset", Reset(), ""),
        CommandVector("Set Event Mask (capture)", SetEventMask(eventMask: .init(rawValue: 0x3DBF_F807_BFFF_9FFF)),
                      "ff9fffbf 07f8bf3d"),
        CommandVector("Set Event Mask (named bits)",
                      SetEventMask(eventMask: [.disconnectionComplete, .encryptionChange, .hardwareError, .leMeta]),
                      "90800000 00000020"),
        CommandVector("Set Event Mask Page 2 (capture)", SetEventMaskPage2(eventMask: 1 << 25), "00000002 00000000"),
        CommandVector("Read Local Version Information", ReadLocalVersionInformation(), ""),
        CommandVector("Read Local Supported Commands", ReadLocalSupportedCommands(), ""),
        CommandVector("Read Local Supported Features", ReadLocalSupportedFeatures(), ""),
        CommandVector("Read Buffer Size", ReadBufferSize(), ""),
        CommandVector("Read BD_ADDR", ReadBDADDR(), ""),

        // LE controller setup.
        CommandVector("LE Set Event Mask (capture)", LESetEventMask(eventMask: .init(rawValue: 0x007B_ED0F_FFF7_FFFF)),
                      "fffff7ff 0fed7b00"),
        CommandVector("LE Set Event Mask (default)", LESetEventMask(eventMask: .default), "1f000000 00000000"),
        CommandVector("LE Set Event Mask (v2 connection complete)",
                      LESetEventMask(eventMask: [.connectionComplete, .enhancedConnectionCompleteV2]), "01000000 00010000"),
        CommandVector("LE Read Buffer Size", LEReadBufferSize(), ""),
        CommandVector("LE Read Buffer Size [v2]", LEReadBufferSizeV2(), ""),
        CommandVector("LE Read Local Supported Features", LEReadLocalSupportedFeatures(), ""),
        CommandVector("LE Set Random Address (capture)", LESetRandomAddress(randomAddress: central), "010000175ac0"),
        CommandVector("LE Read Suggested Default Data Length", LEReadSuggestedDefaultDataLength(), ""),
        CommandVector("LE Write Suggested Default Data Length (capture)",
                      LEWriteSuggestedDefaultDataLength(suggestedMaxTxOctets: 251, suggestedMaxTxTime: 2120), "fb00 4808"),
        CommandVector("LE Read Maximum Data Length", LEReadMaximumDataLength(), ""),

        // The resolving list (§7.8.38–§7.8.45, §7.8.77); the peer IRK is Part H
        // Appendix D.7's ah() example key.
        CommandVector("LE Add Device To Resolving List (static random identity)",
                      LEAddDeviceToResolvingList(peerIdentityAddress: peripheral, peerIdentityResolvingKey: sampleIRK,
                                                 localIdentityResolvingKey: key),
                      "01 020000175ac0 9b7d390aa610103405adc857a33402ec 000102030405060708090a0b0c0d0e0f"),
        CommandVector("LE Add Device To Resolving List (public identity, no peer IRK)",
                      LEAddDeviceToResolvingList(peerIdentityAddress: publicPeer, peerIdentityResolvingKey: 0,
                                                 localIdentityResolvingKey: key),
                      "00 665544332211 00000000000000000000000000000000 000102030405060708090a0b0c0d0e0f"),
        CommandVector("LE Remove Device From Resolving List", LERemoveDeviceFromResolvingList(peerIdentityAddress: publicPeer),
                      "00 665544332211"),
        CommandVector("LE Clear Resolving List", LEClearResolvingList(), ""),
        CommandVector("LE Read Resolving List Size", LEReadResolvingListSize(), ""),
        CommandVector("LE Read Peer Resolvable Address", LEReadPeerResolvableAddress(peerIdentityAddress: peripheral),
                      "01 020000175ac0"),
        CommandVector("LE Read Local Resolvable Address", LEReadLocalResolvableAddress(peerIdentityAddress: publicPeer),
                      "00 665544332211"),
        CommandVector("LE Set Address Resolution Enable (on)", LESetAddressResolutionEnable(addressResolutionEnable: true), "01"),
        CommandVector("LE Set Address Resolution Enable (off)", LESetAddressResolutionEnable(addressResolutionEnable: false), "00"),
        CommandVector("LE Set Resolvable Private Address Timeout (15 minutes)",
                      LESetResolvablePrivateAddressTimeout(rpaTimeout: 900), "8403"),
        CommandVector("LE Set Resolvable Private Address Timeout (1 hour)",
                      LESetResolvablePrivateAddressTimeout(rpaTimeout: 0x0E10), "100e"),
        CommandVector("LE Set Privacy Mode (device)", LESetPrivacyMode(peerIdentityAddress: peripheral, privacyMode: .device),
                      "01 020000175ac0 01"),
        CommandVector("LE Set Privacy Mode (network)", LESetPrivacyMode(peerIdentityAddress: publicPeer, privacyMode: .network),
                      "00 665544332211 00"),
        CommandVector("LE Read Filter Accept List Size", LEReadFilterAcceptListSize(), ""),
        CommandVector("LE Clear Filter Accept List", LEClearFilterAcceptList(), ""),
        CommandVector("LE Add Device To Filter Accept List", LEAddDeviceToFilterAcceptList(address: peripheral),
                      "01 020000175ac0"),
        CommandVector("LE Add Device To Filter Accept List (anonymous)",
                      LEAddDeviceToFilterAcceptList(address: BluetoothAddress(0), addressType: .anonymous), "ff 000000000000"),
        CommandVector("LE Remove Device From Filter Accept List", LERemoveDeviceFromFilterAcceptList(address: publicPeer),
                      "00 665544332211"),
        CommandVector("LE Rand", LERand(), ""),
        CommandVector("LE Encrypt", LEEncrypt(key: key, plaintextData: UInt128(0x1F1E_1D1C_1B1A_1918_1716_1514_1312_1110)),
                      "000102030405060708090a0b0c0d0e0f 101112131415161718191a1b1c1d1e1f"),

        // Legacy advertising.
        CommandVector("LE Read Advertising Physical Channel Tx Power", LEReadAdvertisingPhysicalChannelTxPower(), ""),
        CommandVector("LE Set Advertising Parameters (ADV_IND)",
                      LESetAdvertisingParameters(advertisingIntervalMin: 0x0800, advertisingIntervalMax: 0x0800),
                      "0008 0008 00 01 00 000000000000 07 00"),
        CommandVector("LE Set Advertising Parameters (directed low duty)",
                      LESetAdvertisingParameters(advertisingIntervalMin: 0x00A0, advertisingIntervalMax: 0x00F0,
                                                 advertisingType: .advDirectIndLowDutyCycle, ownAddressType: .random,
                                                 peerAddress: peripheral, advertisingChannelMap: [.channel37, .channel39],
                                                 advertisingFilterPolicy: .filterBoth),
                      "a000 f000 04 01 01 020000175ac0 05 03"),
        CommandVector("LE Set Advertising Data (flags)", LESetAdvertisingData(advertisingData: [0x02, 0x01, 0x06]),
                      "03 020106 00000000000000000000000000000000000000000000000000000000"),
        CommandVector("LE Set Advertising Data (empty)", LESetAdvertisingData(advertisingData: []),
                      "00 00000000000000000000000000000000000000000000000000000000000000"),
        CommandVector("LE Set Scan Response Data (name)",
                      LESetScanResponseData(scanResponseData: [0x09, 0x09] + Array("swiftatt".utf8)[...]),
                      "0a 09097377696674617474 000000000000000000000000000000000000000000"),
        CommandVector("LE Set Advertising Enable (on)", LESetAdvertisingEnable(advertisingEnable: true), "01"),
        CommandVector("LE Set Advertising Enable (off)", LESetAdvertisingEnable(advertisingEnable: false), "00"),

        // Legacy scanning and initiating.
        CommandVector("LE Set Scan Parameters", LESetScanParameters(scanType: .active, scanInterval: 0x0010, scanWindow: 0x0010),
                      "01 1000 1000 01 00"),
        CommandVector("LE Set Scan Parameters (passive, filtered)",
                      LESetScanParameters(scanType: .passive, scanInterval: 0x4000, scanWindow: 0x0004,
                                          ownAddressType: .resolvablePrivateOrRandom, scanningFilterPolicy: .extendedFiltered),
                      "00 0040 0400 03 03"),
        CommandVector("LE Set Scan Enable (on, filtered)", LESetScanEnable(scanEnable: true, filterDuplicates: true), "01 01"),
        CommandVector("LE Set Scan Enable (off)", LESetScanEnable(scanEnable: false), "00 00"),
        CommandVector("LE Create Connection (capture)",
                      LECreateConnection(scanInterval: 0x0060, scanWindow: 0x0060, peerAddress: peripheral,
                                         connectionParameters: connection),
                      "6000 6000 00 01 020000175ac0 01 0c00 1800 0000 4800 0000 0000"),
        CommandVector("LE Create Connection (filter accept list, identity)",
                      LECreateConnection(scanInterval: 0x0010, scanWindow: 0x0008, initiatorFilterPolicy: .filterAcceptList,
                                         peerAddress: publicPeer, peerAddressType: .publicIdentity, ownAddressType: .public,
                                         connectionParameters: .init(intervalMin: 6, intervalMax: 0x0C80, maxLatency: 0x01F3,
                                                                     supervisionTimeout: 0x0C80, minCELength: 1, maxCELength: 2)),
                      "1000 0800 01 02 665544332211 00 0600 800c f301 800c 0100 0200"),
        CommandVector("LE Create Connection Cancel", LECreateConnectionCancel(), ""),

        // Connections.
        CommandVector("Disconnect (capture)", Disconnect(connectionHandle: 1), "0100 13"),
        CommandVector("Disconnect (reason 0x16)", Disconnect(connectionHandle: 0x0EFF, reason: .connectionTerminatedByLocalHost),
                      "ff0e 16"),
        CommandVector("Read Remote Version Information", ReadRemoteVersionInformation(connectionHandle: 0x0EFF), "ff0e"),
        CommandVector("LE Connection Update",
                      LEConnectionUpdate(connectionHandle: 0x0040, connectionParameters: .init(
                          intervalMin: 0x0018, intervalMax: 0x0028, maxLatency: 4, supervisionTimeout: 0x01F4,
                          minCELength: 2, maxCELength: 4)),
                      "4000 1800 2800 0400 f401 0200 0400"),
        CommandVector("LE Read Remote Features", LEReadRemoteFeatures(connectionHandle: 1), "0100"),
        CommandVector("LE Set Data Length", LESetDataLength(connectionHandle: 1, txOctets: 251, txTime: 2120), "0100 fb00 4808"),
        CommandVector("LE Read PHY", LEReadPHY(connectionHandle: 1), "0100"),
        CommandVector("LE Set Default PHY (1M and 2M)", LESetDefaultPHY(txPHYs: [.le1M, .le2M], rxPHYs: [.le1M, .le2M]),
                      "00 03 03"),
        CommandVector("LE Set Default PHY (no preference)", LESetDefaultPHY(allPHYs: .all, txPHYs: [], rxPHYs: []), "03 00 00"),
        CommandVector("LE Set PHY (2M)", LESetPHY(connectionHandle: 1, txPHYs: .le2M, rxPHYs: .le2M), "0100 00 02 02 0000"),
        CommandVector("LE Set PHY (coded S=8)",
                      LESetPHY(connectionHandle: 2, allPHYs: .noRxPreference, txPHYs: .leCoded, rxPHYs: .all, phyOptions: .s8),
                      "0200 02 04 07 0200"),

        // Encryption.
        CommandVector("LE Enable Encryption",
                      LEEnableEncryption(connectionHandle: 1, randomNumber: 0x0123_4567_89AB_CDEF, encryptedDiversifier: 0xBEEF,
                                         longTermKey: key),
                      "0100 efcdab8967452301 efbe 000102030405060708090a0b0c0d0e0f"),
        CommandVector("LE Long Term Key Request Reply",
                      LELongTermKeyRequestReply(connectionHandle: 0x0040,
                                                longTermKey: UInt128(0x0011_2233_4455_6677_8899_AABB_CCDD_EEFF)),
                      "4000 ffeeddccbbaa99887766554433221100"),
        CommandVector("LE Long Term Key Request Negative Reply", LELongTermKeyRequestNegativeReply(connectionHandle: 0x0040),
                      "4000"),
        CommandVector("Read Encryption Key Size", ReadEncryptionKeySize(connectionHandle: 0x0EFF), "ff0e"),

        // Extended advertising.
        CommandVector("LE Set Advertising Set Random Address",
                      LESetAdvertisingSetRandomAddress(advertisingHandle: 0, randomAddress: peripheral), "00 020000175ac0"),
        CommandVector("LE Set Extended Advertising Parameters (legacy ADV_IND)",
                      LESetExtendedAdvertisingParameters(advertisingHandle: 0, advertisingEventProperties: .legacyADVIND,
                                                         primaryAdvertisingIntervalMin: 0xA0, primaryAdvertisingIntervalMax: 0xA0),
                      "00 1300 a00000 a00000 07 01 00 000000000000 00 7f 01 00 01 00 00"),
        CommandVector("LE Set Extended Advertising Parameters (coded, directed filter)",
                      LESetExtendedAdvertisingParameters(
                          advertisingHandle: 1, advertisingEventProperties: .connectable,
                          primaryAdvertisingIntervalMin: 0x000320, primaryAdvertisingIntervalMax: 0x000640,
                          primaryAdvertisingChannelMap: .channel37, ownAddressType: .resolvablePrivateOrRandom,
                          peerAddress: peripheral, peerAddressType: .randomIdentity,
                          advertisingFilterPolicy: .filterConnectionRequests, advertisingTxPower: -8,
                          primaryAdvertisingPHY: .leCoded, secondaryAdvertisingMaxSkip: 2, secondaryAdvertisingPHY: .le2M,
                          advertisingSID: 0x0A, scanRequestNotificationEnable: true),
                      "01 0100 200300 400600 01 03 03 020000175ac0 02 f8 03 02 02 0a 01"),
        CommandVector("LE Set Extended Advertising Data",
                      LESetExtendedAdvertisingData(advertisingHandle: 0, fragmentPreference: .shouldNotFragment,
                                                   advertisingData: [0x02, 0x01, 0x06, 0x03, 0x03, 0x0F, 0x18]),
                      "00 03 01 07 02010603030f18"),
        CommandVector("LE Set Extended Advertising Data (unchanged)",
                      LESetExtendedAdvertisingData(advertisingHandle: 1, operation: .unchangedData, advertisingData: []),
                      "01 04 00 00"),
        CommandVector("LE Set Extended Scan Response Data",
                      LESetExtendedScanResponseData(advertisingHandle: 0, scanResponseData: [0x09, 0x09] + Array("swiftatt".utf8)[...]),
                      "00 03 00 0a 09097377696674617474"),
        CommandVector("LE Set Extended Advertising Enable (two sets)",
                      LESetExtendedAdvertisingEnable(enable: true, sets: [
                          .init(advertisingHandle: 0),
                          .init(advertisingHandle: 1, duration: 0x01F4, maxExtendedAdvertisingEvents: 3),
                      ]),
                      "01 02 00 0000 00 01 f401 03"),
        CommandVector("LE Set Extended Advertising Enable (disable all)", LESetExtendedAdvertisingEnable(enable: false, sets: []),
                      "00 00"),
        CommandVector("LE Read Maximum Advertising Data Length", LEReadMaximumAdvertisingDataLength(), ""),
        CommandVector("LE Read Number of Supported Advertising Sets", LEReadNumberOfSupportedAdvertisingSets(), ""),
        CommandVector("LE Remove Advertising Set", LERemoveAdvertisingSet(advertisingHandle: 1), "01"),
        CommandVector("LE Clear Advertising Sets", LEClearAdvertisingSets(), ""),

        // Extended scanning and initiating.
        CommandVector("LE Set Extended Scan Parameters (1M)",
                      LESetExtendedScanParameters(le1M: .init(scanType: .active, scanInterval: 0x0060, scanWindow: 0x0030)),
                      "01 00 01 01 6000 3000"),
        CommandVector("LE Set Extended Scan Parameters (1M and Coded)",
                      LESetExtendedScanParameters(ownAddressType: .public, scanningFilterPolicy: .extendedFiltered,
                                                  le1M: .init(scanType: .passive, scanInterval: 0x0010, scanWindow: 0x0010),
                                                  leCoded: .init(scanType: .active, scanInterval: 0x0030, scanWindow: 0x0030)),
                      "00 03 05 00 1000 1000 01 3000 3000"),
        CommandVector("LE Set Extended Scan Enable",
                      LESetExtendedScanEnable(enable: true, filterDuplicates: .enabled, duration: 0x01F4), "01 01 f401 0000"),
        CommandVector("LE Set Extended Scan Enable (periodic)",
                      LESetExtendedScanEnable(enable: true, filterDuplicates: .enabledResetEachPeriod, duration: 0x0064,
                                              period: 0x0002),
                      "01 02 6400 0200"),
        CommandVector("LE Extended Create Connection (1M)",
                      LEExtendedCreateConnection(peerAddress: peripheral, le1M: .init(
                          scanInterval: 0x0060, scanWindow: 0x0060,
                          connectionParameters: .init(intervalMin: 0x0018, intervalMax: 0x0028, maxLatency: 0,
                                                      supervisionTimeout: 0x01F4))),
                      "00 01 01 020000175ac0 01  6000 6000 1800 2800 0000 f401 0000 0000"),
        CommandVector("LE Extended Create Connection (1M, 2M, Coded)",
                      LEExtendedCreateConnection(
                          initiatorFilterPolicy: .filterAcceptList, ownAddressType: .public,
                          peerAddress: publicPeer, peerAddressType: .publicIdentity,
                          le1M: .init(scanInterval: 0x0060, scanWindow: 0x0060, connectionParameters: .init(
                              intervalMin: 0x0018, intervalMax: 0x0028, maxLatency: 0, supervisionTimeout: 0x01F4)),
                          le2M: .init(scanInterval: 0, scanWindow: 0, connectionParameters: .init(
                              intervalMin: 0x0018, intervalMax: 0x0018, maxLatency: 0, supervisionTimeout: 0x0064)),
                          leCoded: .init(scanInterval: 0x0120, scanWindow: 0x0090, connectionParameters: .init(
                              intervalMin: 0x0050, intervalMax: 0x0050, maxLatency: 1, supervisionTimeout: 0x0190,
                              minCELength: 0x0010, maxCELength: 0x0020))),
                      """
                      01 00 02 665544332211 07
                      6000 6000 1800 2800 0000 f401 0000 0000
                      0000 0000 1800 1800 0000 6400 0000 0000
                      2001 9000 5000 5000 0100 9001 1000 2000
                      """),
    ]
}
