import SwiftATTCore
import SwiftATTHCI
import Testing

/// One Command Complete's return parameters (status first) and their typed value.
struct ReturnVector: Sendable, CustomTestStringConvertible {
    let name: String
    let hex: String
    let opcode: HCIOpcode
    let expected: any HCIReturnParameters & ByteEncodable
    let parse: @Sendable ([UInt8]) throws -> Bool
    let matches: @Sendable (any HCIReturnParameters) -> Bool

    init<C: HCICommand>(_ name: String, _ command: C.Type, _ expected: C.ReturnParameters, _ hex: String)
    where C.ReturnParameters: Hashable & ByteEncodable {
        self.name = name
        self.hex = hex
        opcode = C.opcode
        self.expected = expected
        parse = { try C.ReturnParameters(returnParameters: $0[...]) == expected }
        matches = { ($0 as? C.ReturnParameters) == expected }
    }

    var testDescription: String { name }
}

extension ReturnVector {
    static let all: [ReturnVector] = [
        ReturnVector("Reset (capture)", Reset.self, HCIStatusReturn(status: .success), "00"),
        ReturnVector("LE Set Random Address refused", LESetRandomAddress.self, HCIStatusReturn(status: .commandDisallowed), "0c"),
        ReturnVector("Read Local Version Information (capture)", ReadLocalVersionInformation.self,
                     .init(status: .success, hciVersion: 9, hciSubversion: 0, lmpVersion: 9, companyIdentifier: 0xFFFF,
                           lmpSubversion: 0),
                     "00 09 0000 09 ffff 0000"),
        ReturnVector("Read Local Version Information (5.4)", ReadLocalVersionInformation.self,
                     .init(status: .success, hciVersion: 0x0D, hciSubversion: 0x1234, lmpVersion: 0x0D,
                           companyIdentifier: 0x005D, lmpSubversion: 0x5678),
                     "00 0d 3412 0d 5d00 7856"),
        ReturnVector("Read Local Supported Commands (capture)", ReadLocalSupportedCommands.self,
                     .init(status: .success, supportedCommands: HCISupportedCommands(octets: bytes(bumbleSupportedCommands))),
                     "00" + bumbleSupportedCommands),
        ReturnVector("Read Local Supported Features (capture)", ReadLocalSupportedFeatures.self,
                     .init(status: .success, lmpFeatures: [.brEDRNotSupported, .leSupportedController, .extendedFeatures]),
                     "00 0000000060000080"),
        ReturnVector("Read Buffer Size (capture)", ReadBufferSize.self,
                     .init(status: .success, aclDataPacketLength: 27, synchronousDataPacketLength: 0,
                           totalNumACLDataPackets: 64, totalNumSynchronousDataPackets: 0),
                     "00 1b00 00 4000 0000"),
        ReturnVector("Read BD_ADDR (capture)", ReadBDADDR.self,
                     .init(status: .success, address: BluetoothAddress(0xF0F0_F0F0_F001)), "00 01f0f0f0f0f0"),
        ReturnVector("LE Read Buffer Size", LEReadBufferSize.self,
                     .init(status: .success, leACLDataPacketLength: 27, totalNumLEACLDataPackets: 15), "00 1b00 0f"),
        ReturnVector("LE Read Buffer Size [v2] (capture)", LEReadBufferSizeV2.self,
                     .init(status: .success, leACLDataPacketLength: 27, totalNumLEACLDataPackets: 64,
                           isoDataPacketLength: 960, totalNumISODataPackets: 64),
                     "00 1b00 40 c003 40"),
        ReturnVector("LE Read Local Supported Features (capture)", LEReadLocalSupportedFeatures.self,
                     .init(status: .success, leFeatures: LEFeatures(rawValue: 0x1_79FF)), "00 ff79010000000000"),
        ReturnVector("LE Read Suggested Default Data Length (capture)", LEReadSuggestedDefaultDataLength.self,
                     .init(status: .success, suggestedMaxTxOctets: 27, suggestedMaxTxTime: 328), "00 1b00 4801"),
        ReturnVector("LE Read Maximum Data Length", LEReadMaximumDataLength.self,
                     .init(status: .success, supportedMaxTxOctets: 251, supportedMaxTxTime: 2120, supportedMaxRxOctets: 251,
                           supportedMaxRxTime: 2120),
                     "00 fb00 4808 fb00 4808"),
        ReturnVector("LE Read PHY", LEReadPHY.self,
                     .init(status: .success, connectionHandle: 1, txPHY: .le2M, rxPHY: .leCoded), "00 0100 02 03"),
        ReturnVector("LE Rand", LERand.self, .init(status: .success, randomNumber: 0xEFCD_AB89_6745_2301),
                     "00 0123456789abcdef"),
        ReturnVector("LE Encrypt", LEEncrypt.self,
                     .init(status: .success, encryptedData: UInt128(0x99AD_1B52_26A3_7E3E_058E_3B8E_27C2_C666)),
                     "00 66c6c2278e3b8e053e7ea326521bad99"),
        ReturnVector("LE Set Data Length", LESetDataLength.self, .init(status: .success, connectionHandle: 1), "00 0100"),
        ReturnVector("LE Long Term Key Request Reply", LELongTermKeyRequestReply.self,
                     .init(status: .success, connectionHandle: 0x0040), "00 4000"),
        ReturnVector("LE Long Term Key Request Negative Reply", LELongTermKeyRequestNegativeReply.self,
                     .init(status: .success, connectionHandle: 0x0040), "00 4000"),
        ReturnVector("Read Encryption Key Size", ReadEncryptionKeySize.self,
                     .init(status: .success, connectionHandle: 0x0040, keySize: 16), "00 4000 10"),
        ReturnVector("LE Read Resolving List Size", LEReadResolvingListSize.self,
                     .init(status: .success, resolvingListSize: 8), "00 08"),
        ReturnVector("LE Read Peer Resolvable Address", LEReadPeerResolvableAddress.self,
                     .init(status: .success, resolvableAddress: resolvable), "00 55443322114b"),
        ReturnVector("LE Read Local Resolvable Address", LEReadLocalResolvableAddress.self,
                     .init(status: .success, resolvableAddress: BluetoothAddress(0x7A01_0203_0405, kind: .random)),
                     "00 0504030201 7a"),
        ReturnVector("LE Remove Device From Resolving List, not in the list",
                     LERemoveDeviceFromResolvingList.self, HCIStatusReturn(status: .unknownConnectionIdentifier), "02"),
        ReturnVector("LE Add Device To Resolving List, list full", LEAddDeviceToResolvingList.self,
                     HCIStatusReturn(status: .memoryCapacityExceeded), "07"),
        ReturnVector("LE Read Filter Accept List Size", LEReadFilterAcceptListSize.self,
                     .init(status: .success, filterAcceptListSize: 8), "00 08"),
        ReturnVector("LE Read Advertising Physical Channel Tx Power", LEReadAdvertisingPhysicalChannelTxPower.self,
                     .init(status: .success, txPowerLevel: -10), "00 f6"),
        ReturnVector("LE Set Extended Advertising Parameters", LESetExtendedAdvertisingParameters.self,
                     .init(status: .success, selectedTxPower: -8), "00 f8"),
        ReturnVector("LE Read Maximum Advertising Data Length", LEReadMaximumAdvertisingDataLength.self,
                     .init(status: .success, maxAdvertisingDataLength: 1650), "00 7206"),
        ReturnVector("LE Read Number of Supported Advertising Sets", LEReadNumberOfSupportedAdvertisingSets.self,
                     .init(status: .success, numSupportedAdvertisingSets: 16), "00 10"),
    ]
}

/// Bumble 0.0.236's Supported_Commands, from the capture's Read Local Supported Commands.
let bumbleSupportedCommands = """
    2000800300c000000000e4000000a822000000000000040000f7ffff7f00000030f0f9ff0100800400200000 \
    0000000000000000000000000000000000000000
    """
