/// The commands swift-att knows: the spec's name of each and the type that parses it,
/// for logs, errors and `swift-att dump`.
public enum HCICommandNames {
    /// One known command.
    public struct Entry: Sendable {
        /// The spec's name, without the `HCI_` prefix and underscores.
        public let name: String
        /// The command's type, which parses its parameters.
        public let type: any HCICommand.Type

        init(_ name: String, _ type: any HCICommand.Type) {
            self.name = name
            self.type = type
        }

        /// The command's opcode.
        public var opcode: HCIOpcode { type.opcode }
    }

    /// Every known command, by opcode group then opcode.
    public static let all: [Entry] = [
        Entry("Disconnect", Disconnect.self),
        Entry("Read Remote Version Information", ReadRemoteVersionInformation.self),

        Entry("Set Event Mask", SetEventMask.self),
        Entry("Reset", Reset.self),
        Entry("Set Event Mask Page 2", SetEventMaskPage2.self),

        Entry("Read Local Version Information", ReadLocalVersionInformation.self),
        Entry("Read Local Supported Commands", ReadLocalSupportedCommands.self),
        Entry("Read Local Supported Features", ReadLocalSupportedFeatures.self),
        Entry("Read Buffer Size", ReadBufferSize.self),
        Entry("Read BD_ADDR", ReadBDADDR.self),

        Entry("Read Encryption Key Size", ReadEncryptionKeySize.self),

        Entry("LE Set Event Mask", LESetEventMask.self),
        Entry("LE Read Buffer Size", LEReadBufferSize.self),
        Entry("LE Read Local Supported Features", LEReadLocalSupportedFeatures.self),
        Entry("LE Set Random Address", LESetRandomAddress.self),
        Entry("LE Set Advertising Parameters", LESetAdvertisingParameters.self),
        Entry("LE Read Advertising Physical Channel Tx Power", LEReadAdvertisingPhysicalChannelTxPower.self),
        Entry("LE Set Advertising Data", LESetAdvertisingData.self),
        Entry("LE Set Scan Response Data", LESetScanResponseData.self),
        Entry("LE Set Advertising Enable", LESetAdvertisingEnable.self),
        Entry("LE Set Scan Parameters", LESetScanParameters.self),
        Entry("LE Set Scan Enable", LESetScanEnable.self),
        Entry("LE Create Connection", LECreateConnection.self),
        Entry("LE Create Connection Cancel", LECreateConnectionCancel.self),
        Entry("LE Read Filter Accept List Size", LEReadFilterAcceptListSize.self),
        Entry("LE Clear Filter Accept List", LEClearFilterAcceptList.self),
        Entry("LE Add Device To Filter Accept List", LEAddDeviceToFilterAcceptList.self),
        Entry("LE Remove Device From Filter Accept List", LERemoveDeviceFromFilterAcceptList.self),
        Entry("LE Connection Update", LEConnectionUpdate.self),
        Entry("LE Read Remote Features", LEReadRemoteFeatures.self),
        Entry("LE Encrypt", LEEncrypt.self),
        Entry("LE Rand", LERand.self),
        Entry("LE Enable Encryption", LEEnableEncryption.self),
        Entry("LE Long Term Key Request Reply", LELongTermKeyRequestReply.self),
        Entry("LE Long Term Key Request Negative Reply", LELongTermKeyRequestNegativeReply.self),
        Entry("LE Set Data Length", LESetDataLength.self),
        Entry("LE Read Suggested Default Data Length", LEReadSuggestedDefaultDataLength.self),
        Entry("LE Write Suggested Default Data Length", LEWriteSuggestedDefaultDataLength.self),
        Entry("LE Add Device To Resolving List", LEAddDeviceToResolvingList.self),
        Entry("LE Remove Device From Resolving List", LERemoveDeviceFromResolvingList.self),
        Entry("LE Clear Resolving List", LEClearResolvingList.self),
        Entry("LE Read Resolving List Size", LEReadResolvingListSize.self),
        Entry("LE Read Peer Resolvable Address", LEReadPeerResolvableAddress.self),
        Entry("LE Read Local Resolvable Address", LEReadLocalResolvableAddress.self),
        Entry("LE Set Address Resolution Enable", LESetAddressResolutionEnable.self),
        Entry("LE Set Resolvable Private Address Timeout", LESetResolvablePrivateAddressTimeout.self),
        Entry("LE Read Maximum Data Length", LEReadMaximumDataLength.self),
        Entry("LE Read PHY", LEReadPHY.self),
        Entry("LE Set Default PHY", LESetDefaultPHY.self),
        Entry("LE Set PHY", LESetPHY.self),
        Entry("LE Set Advertising Set Random Address", LESetAdvertisingSetRandomAddress.self),
        Entry("LE Set Extended Advertising Parameters", LESetExtendedAdvertisingParameters.self),
        Entry("LE Set Extended Advertising Data", LESetExtendedAdvertisingData.self),
        Entry("LE Set Extended Scan Response Data", LESetExtendedScanResponseData.self),
        Entry("LE Set Extended Advertising Enable", LESetExtendedAdvertisingEnable.self),
        Entry("LE Read Maximum Advertising Data Length", LEReadMaximumAdvertisingDataLength.self),
        Entry("LE Read Number of Supported Advertising Sets", LEReadNumberOfSupportedAdvertisingSets.self),
        Entry("LE Remove Advertising Set", LERemoveAdvertisingSet.self),
        Entry("LE Clear Advertising Sets", LEClearAdvertisingSets.self),
        Entry("LE Set Extended Scan Parameters", LESetExtendedScanParameters.self),
        Entry("LE Set Extended Scan Enable", LESetExtendedScanEnable.self),
        Entry("LE Extended Create Connection", LEExtendedCreateConnection.self),
        Entry("LE Set Privacy Mode", LESetPrivacyMode.self),
        Entry("LE Read Buffer Size [v2]", LEReadBufferSizeV2.self),
    ]

    static let byOpcode: [UInt16: Entry] = {
        var table: [UInt16: Entry] = [:]
        for entry in all { table[entry.opcode.rawValue] = entry }
        return table
    }()

    /// The known command with this opcode.
    public static func entry(for opcode: HCIOpcode) -> Entry? { byOpcode[opcode.rawValue] }

    /// The spec's name of the command with this opcode, when known.
    public static func name(of opcode: HCIOpcode) -> String? { byOpcode[opcode.rawValue]?.name }
}

extension HCICommandPacket {
    /// The packet's parameters decoded as its command: `nil` for an opcode swift-att does
    /// not know, a typed error for parameters that break the command's layout.
    public func decodedCommand() throws(HCIDecodingError) -> (any HCICommand)? {
        guard let entry = HCICommandNames.entry(for: opcode) else { return nil }
        return try entry.type.init(parameters: parameters)
    }
}

extension HCICommand {
    /// Decodes a Command Complete's return parameters as this command's; callable on a
    /// registry entry's `type` when only the opcode is known.
    public static func decodeReturnParameters(
        _ bytes: borrowing ArraySlice<UInt8>
    ) throws(HCIDecodingError) -> any HCIReturnParameters {
        try ReturnParameters(returnParameters: bytes)
    }
}
