import SwiftATTCore
import SwiftATTHCI
import Testing

/// One event packet (code, length, parameters; no H4 indicator) worked by hand from
/// Core 5.4 Vol 4 Part E §7.7 (or copied from the capture), and its typed value.
struct EventVector: Sendable, CustomTestStringConvertible {
    let name: String
    let hex: String
    let event: HCIEvent

    init(_ name: String, _ event: HCIEvent, _ hex: String) {
        self.name = name
        self.event = event
        self.hex = hex
    }

    var packet: [UInt8] { bytes(hex) }
    var testDescription: String { name }
}

private let advertisingData: ArraySlice<UInt8> = [0x02, 0x01, 0x06, 0x03, 0x03, 0x0F, 0x18]
private let enhanced = LEEnhancedConnectionComplete(
    connectionHandle: 1, role: .peripheral, peerAddress: central, peerAddressType: .randomIdentity,
    localResolvablePrivateAddress: resolvable, connectionInterval: 0x0028, peripheralLatency: 0,
    supervisionTimeout: 0x01F4, centralClockAccuracy: 5)

extension EventVector {
    static let all: [EventVector] = [
        EventVector("Disconnection Complete (capture)",
                    .disconnectionComplete(.init(connectionHandle: 1, reason: .remoteUserTerminatedConnection)),
                    "05 04 00 0100 13"),
        EventVector("Encryption Change", .encryptionChange(.init(connectionHandle: 0x0040, encryptionEnabled: 1)),
                    "08 04 00 4000 01"),
        EventVector("Encryption Change (failed)",
                    .encryptionChange(.init(status: .pinOrKeyMissing, connectionHandle: 0x0040, encryptionEnabled: 0)),
                    "08 04 06 4000 00"),
        EventVector("Read Remote Version Information Complete",
                    .readRemoteVersionInformationComplete(.init(connectionHandle: 1, version: 0x0D, companyIdentifier: 0x005D,
                                                                subversion: 0x1234)),
                    "0c 08 00 0100 0d 5d00 3412"),
        EventVector("Command Complete: Reset (capture)",
                    .commandComplete(.init(numHCICommandPackets: 1, command: Reset.self,
                                           returnParameters: HCIStatusReturn(status: .success))),
                    "0e 04 01 030c 00"),
        EventVector("Command Complete: Read Local Version Information (capture)",
                    .commandComplete(.init(numHCICommandPackets: 1, command: ReadLocalVersionInformation.self,
                                           returnParameters: .init(status: .success, hciVersion: 9, hciSubversion: 0,
                                                                   lmpVersion: 9, companyIdentifier: 0xFFFF, lmpSubversion: 0))),
                    "0e 0c 01 0110 00 09 0000 09 ffff 0000"),
        EventVector("Command Complete: no command (credits only)",
                    .commandComplete(.init(numHCICommandPackets: 2, commandOpcode: HCIOpcode(rawValue: 0), returnParameters: [])),
                    "0e 03 02 0000"),
        EventVector("Command Status: LE Create Connection (capture)",
                    .commandStatus(.init(status: .success, numHCICommandPackets: 1, commandOpcode: LECreateConnection.opcode)),
                    "0f 04 00 01 0d20"),
        EventVector("Command Status: Disconnect refused",
                    .commandStatus(.init(status: .unknownConnectionIdentifier, numHCICommandPackets: 1,
                                         commandOpcode: Disconnect.opcode)),
                    "0f 04 02 01 0604"),
        EventVector("Hardware Error", .hardwareError(.init(hardwareCode: 0x42)), "10 01 42"),
        EventVector("Number Of Completed Packets (capture)",
                    .numberOfCompletedPackets(.init(entries: [.init(connectionHandle: 1, numCompletedPackets: 1)])),
                    "13 05 01 0100 0100"),
        EventVector("Number Of Completed Packets (two handles)",
                    .numberOfCompletedPackets(.init(entries: [.init(connectionHandle: 1, numCompletedPackets: 3),
                                                              .init(connectionHandle: 0x0040, numCompletedPackets: 1)])),
                    "13 09 02 0100 0300 4000 0100"),
        EventVector("Number Of Completed Packets (none)", .numberOfCompletedPackets(.init(entries: [])), "13 01 00"),
        EventVector("Encryption Key Refresh Complete", .encryptionKeyRefreshComplete(.init(connectionHandle: 0x0040)),
                    "30 03 00 4000"),

        EventVector("LE Connection Complete (capture)",
                    .leMeta(.connectionComplete(.init(connectionHandle: 1, role: .central, peerAddress: peripheral,
                                                      connectionInterval: 0x000C, peripheralLatency: 0,
                                                      supervisionTimeout: 0x0048))),
                    "3e 13 01 00 0100 00 01 020000175ac0 0c00 0000 4800 00"),
        EventVector("LE Connection Complete (cancelled)",
                    .leMeta(.connectionComplete(.init(status: .unknownConnectionIdentifier, connectionHandle: 0, role: .central,
                                                      peerAddress: zeroAddress, connectionInterval: 0, peripheralLatency: 0,
                                                      supervisionTimeout: 0))),
                    "3e 13 01 02 0000 00 00 000000000000 0000 0000 0000 00"),
        EventVector("LE Advertising Report (one)",
                    .leMeta(.advertisingReport(.init(reports: [
                        .init(eventType: .advInd, address: peripheral, data: advertisingData, rssi: -50),
                    ]))),
                    "3e 13 02 01  00 01 020000175ac0 07 02010603030f18 ce"),
        EventVector("LE Advertising Report (two, empty scan response)",
                    .leMeta(.advertisingReport(.init(reports: [
                        .init(eventType: .advInd, address: peripheral, data: advertisingData, rssi: -50),
                        .init(eventType: .scanRsp, address: publicPeer, data: [], rssi: 127),
                    ]))),
                    "3e 1d 02 02  00 01 020000175ac0 07 02010603030f18 ce  04 00 665544332211 00 7f"),
        EventVector("LE Advertising Report (31 octets, identity)",
                    .leMeta(.advertisingReport(.init(reports: [
                        .init(eventType: .advNonconnInd, address: publicPeer, addressType: .publicIdentity,
                              data: [0x1E, 0xFF, 0xFF, 0xFF] + ArraySlice(repeating: 0xAB, count: 27), rssi: -127),
                    ]))),
                    "3e 2b 02 01  03 02 665544332211 1f 1effffff" + String(repeating: "ab", count: 27) + "81"),
        EventVector("LE Connection Update Complete",
                    .leMeta(.connectionUpdateComplete(.init(connectionHandle: 1, connectionInterval: 0x0018, peripheralLatency: 0,
                                                            supervisionTimeout: 0x0048))),
                    "3e 0a 03 00 0100 1800 0000 4800"),
        EventVector("LE Read Remote Features Complete",
                    .leMeta(.readRemoteFeaturesComplete(.init(connectionHandle: 1, leFeatures: LEFeatures(rawValue: 0x1_79FF)))),
                    "3e 0c 04 00 0100 ff79010000000000"),
        EventVector("LE Long Term Key Request",
                    .leMeta(.longTermKeyRequest(.init(connectionHandle: 1, randomNumber: 0xEFCD_AB89_6745_2301,
                                                      encryptedDiversifier: 0x1234))),
                    "3e 0d 05 0100 0123456789abcdef 3412"),
        EventVector("LE Data Length Change",
                    .leMeta(.dataLengthChange(.init(connectionHandle: 1, maxTxOctets: 251, maxTxTime: 2120, maxRxOctets: 27,
                                                    maxRxTime: 328))),
                    "3e 0b 07 0100 fb00 4808 1b00 4801"),
        EventVector("LE Enhanced Connection Complete",
                    .leMeta(.enhancedConnectionComplete(enhanced)),
                    "3e 1f 0a 00 0100 01 03 010000175ac0 55443322114b 000000000000 2800 0000 f401 05"),
        EventVector("LE Enhanced Connection Complete [v2]",
                    .leMeta(.enhancedConnectionCompleteV2(.init(connection: enhanced, advertisingHandle: 0, syncHandle: 0xFFFF))),
                    "3e 22 29 00 0100 01 03 010000175ac0 55443322114b 000000000000 2800 0000 f401 05  00 ffff"),
        EventVector("LE PHY Update Complete",
                    .leMeta(.phyUpdateComplete(.init(connectionHandle: 1, txPHY: .le2M, rxPHY: .le2M))),
                    "3e 06 0c 00 0100 02 02"),
        EventVector("LE Extended Advertising Report (legacy ADV_IND)",
                    .leMeta(.extendedAdvertisingReport(.init(reports: [
                        .init(eventType: .init([.connectable, .scannable, .legacy], dataStatus: .complete), address: peripheral,
                              rssi: -50, directAddress: zeroAddress, data: advertisingData),
                    ]))),
                    "3e 21 0d 01  1300 01 020000175ac0 01 00 ff 7f ce 0000 00 000000000000 07 02010603030f18"),
        EventVector("LE Extended Advertising Report (two, anonymous, incomplete)",
                    .leMeta(.extendedAdvertisingReport(.init(reports: [
                        .init(eventType: .init([.connectable, .scannable, .legacy], dataStatus: .complete), address: peripheral,
                              rssi: -50, directAddress: zeroAddress, data: advertisingData),
                        .init(eventType: .init([.scannable, .scanResponse], dataStatus: .incompleteMoreToCome),
                              address: BluetoothAddress(0), addressType: .anonymous, primaryPHY: .leCoded, secondaryPHY: .le2M,
                              advertisingSID: 5, txPower: -4, rssi: -70, periodicAdvertisingInterval: 0x0050,
                              directAddress: resolvable, directAddressType: .randomUnresolved, data: []),
                    ]))),
                    """
                    3e 39 0d 02
                    1300 01 020000175ac0 01 00 ff 7f ce 0000 00 000000000000 07 02010603030f18
                    2a00 ff 000000000000 03 02 05 fc ba 5000 fe 55443322114b 00
                    """),
        EventVector("LE Scan Timeout", .leMeta(.scanTimeout(.init())), "3e 01 11"),
        EventVector("LE Advertising Set Terminated",
                    .leMeta(.advertisingSetTerminated(.init(advertisingHandle: 1, connectionHandle: 0x0040,
                                                            numCompletedExtendedAdvertisingEvents: 5))),
                    "3e 06 12 00 01 4000 05"),
        EventVector("LE Channel Selection Algorithm",
                    .leMeta(.channelSelectionAlgorithm(.init(connectionHandle: 1, channelSelectionAlgorithm: 1))),
                    "3e 04 14 0100 01"),
        EventVector("LE Meta, unknown subevent",
                    .leMeta(.unknown(subeventCode: 0x22, parameters: [0xAB, 0xCD])), "3e 03 22 abcd"),
        EventVector("Unknown event", .unknown(HCIEventPacket(code: 0xFF, parameters: [0x12, 0x34])), "ff 02 1234"),
    ]
}
