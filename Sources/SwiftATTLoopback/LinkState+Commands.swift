import SwiftATTCore
import SwiftATTHCI

/// The commands an emulated controller answers (Core 5.4 Vol 4 Part E §7): what a
/// host's start-up sequence sends, legacy advertising and scanning, connecting and
/// disconnecting, LE Rand, link encryption (`LinkState+Encryption`) and the resolving
/// list (`LinkState+Privacy`). Any other opcode gets Command Complete with Unknown HCI
/// Command, and the supported-commands bitmap lists exactly these.
///
/// LE Encrypt is among the others: a host must do SMP's crypto itself anyway, since
/// Bumble's controllers never answer it (BENCH.md quirk 1), and an emulation that
/// answered it would hide a host that relied on it. Unknown HCI Command at least
/// returns the credit.
extension LinkState {
    /// The supported-commands bitmap (§6.27) of what `execute` implements, the
    /// resolving-list commands only with LL Privacy.
    static func supportedCommands(linkLayerPrivacy: Bool) -> HCISupportedCommands {
        guard linkLayerPrivacy else { return baseCommands }
        var octets = baseCommands.octets
        for c in privacyCommands { octets[c.octet] |= 1 << c.bit }
        return HCISupportedCommands(octets: octets)
    }

    /// The LE features (§7.8.3): encryption, and LL Privacy unless a test took it away.
    static func leFeatures(linkLayerPrivacy: Bool) -> LEFeatures {
        linkLayerPrivacy ? [.leEncryption, .llPrivacy] : .leEncryption
    }

    private static let baseCommands: HCISupportedCommands = {
        typealias C = HCISupportedCommands.Command
        let implemented: [C] = [
            C(octet: 0, bit: 5),  // Disconnect
            .setEventMask, .reset, .readLocalVersionInformation, .readBufferSize, .readBDADDR,
            .leSetEventMask, .leReadBufferSize, .leReadLocalSupportedFeatures, .leSetRandomAddress,
            .leSetAdvertisingParameters, .leSetAdvertisingData, .leSetScanResponseData, .leSetAdvertisingEnable,
            .leSetScanParameters, .leSetScanEnable, .leCreateConnection, .leCreateConnectionCancel, .leConnectionUpdate,
            .leRand, .leEnableEncryption, .leLongTermKeyRequestReply, .leLongTermKeyRequestNegativeReply,
            .readEncryptionKeySize,
        ]
        var octets = [UInt8](repeating: 0, count: 64)
        for c in implemented { octets[c.octet] |= 1 << c.bit }
        return HCISupportedCommands(octets: octets)
    }()

    static let version = ReadLocalVersionInformation.ReturnParameters(
        status: .success, hciVersion: 0x0D, hciSubversion: 0, lmpVersion: 0x0D, companyIdentifier: 0xFFFF, lmpSubversion: 0)

    mutating func execute(_ command: HCICommandPacket, from index: Int) {
        let p = command.parameters
        controllers[index].harness.commandCounts[command.opcode, default: 0] += 1
        if controllers[index].harness.unanswered.contains(command.opcode) { return }
        switch command.opcode {
        case Reset.opcode:
            dropLinks(of: index, peerReason: .connectionTimeout)
            controllers[index].reset()
            succeed(command.opcode, to: index)
        case ReadLocalVersionInformation.opcode:
            complete(ReadLocalVersionInformation.self, Self.version, to: index)
        case ReadLocalSupportedCommands.opcode:
            let commands = Self.supportedCommands(linkLayerPrivacy: controllers[index].harness.linkLayerPrivacy)
            complete(ReadLocalSupportedCommands.self, .init(status: .success, supportedCommands: commands), to: index)
        case ReadBDADDR.opcode:
            complete(ReadBDADDR.self, .init(status: .success, address: controllers[index].publicAddress), to: index)
        case LEReadLocalSupportedFeatures.opcode:
            let features = Self.leFeatures(linkLayerPrivacy: controllers[index].harness.linkLayerPrivacy)
            complete(LEReadLocalSupportedFeatures.self, .init(status: .success, leFeatures: features), to: index)
        case LEReadBufferSize.opcode:
            complete(LEReadBufferSize.self, .init(status: .success, leACLDataPacketLength: UInt16(bufferLength),
                                                  totalNumLEACLDataPackets: UInt8(bufferCount)), to: index)
        case ReadBufferSize.opcode:
            complete(ReadBufferSize.self, .init(status: .success, aclDataPacketLength: UInt16(bufferLength), synchronousDataPacketLength: 0,
                                                totalNumACLDataPackets: UInt16(bufferCount), totalNumSynchronousDataPackets: 0), to: index)
        case SetEventMask.opcode, LESetEventMask.opcode:
            // Masks are accepted and not applied: the host asks for every event sent here.
            succeed(command.opcode, to: index)
        case LESetRandomAddress.opcode:
            guard let c = try? LESetRandomAddress(parameters: p) else { return invalid(command.opcode, to: index) }
            // §7.8.4: not while advertising or scanning.
            if controllers[index].isAdvertising || controllers[index].isScanning {
                return fail(command.opcode, .commandDisallowed, to: index)
            }
            controllers[index].randomAddress = BluetoothAddress(c.randomAddress.value, kind: .random)
            succeed(command.opcode, to: index)
        case LESetAdvertisingParameters.opcode:
            guard let c = try? LESetAdvertisingParameters(parameters: p) else { return invalid(command.opcode, to: index) }
            if controllers[index].isAdvertising { return fail(command.opcode, .commandDisallowed, to: index) }
            controllers[index].advertisingParameters = c
            succeed(command.opcode, to: index)
        case LESetAdvertisingData.opcode:
            guard let c = try? LESetAdvertisingData(parameters: p) else { return invalid(command.opcode, to: index) }
            controllers[index].advertisingData = Array(c.advertisingData)
            succeed(command.opcode, to: index)
        case LESetScanResponseData.opcode:
            guard let c = try? LESetScanResponseData(parameters: p) else { return invalid(command.opcode, to: index) }
            controllers[index].scanResponseData = Array(c.scanResponseData)
            succeed(command.opcode, to: index)
        case LESetAdvertisingEnable.opcode:
            guard let c = try? LESetAdvertisingEnable(parameters: p) else { return invalid(command.opcode, to: index) }
            controllers[index].isAdvertising = c.advertisingEnable
            succeed(command.opcode, to: index)
            if c.advertisingEnable { advertisingStarted(index) }
        case LESetScanParameters.opcode:
            guard let c = try? LESetScanParameters(parameters: p) else { return invalid(command.opcode, to: index) }
            if controllers[index].isScanning { return fail(command.opcode, .commandDisallowed, to: index) }
            controllers[index].scanParameters = c
            succeed(command.opcode, to: index)
        case LESetScanEnable.opcode:
            guard let c = try? LESetScanEnable(parameters: p) else { return invalid(command.opcode, to: index) }
            let wasScanning = controllers[index].isScanning
            controllers[index].isScanning = c.scanEnable
            succeed(command.opcode, to: index)
            if c.scanEnable && !wasScanning { scanningStarted(index) }
        case LECreateConnection.opcode:
            guard let c = try? LECreateConnection(parameters: p) else { return invalid(command.opcode, to: index, status: true) }
            if controllers[index].initiating != nil { return status(command.opcode, .commandDisallowed, to: index) }
            controllers[index].initiating = c
            status(command.opcode, .success, to: index)
            initiate(index)
        case LECreateConnectionCancel.opcode:
            guard controllers[index].initiating != nil else { return fail(command.opcode, .commandDisallowed, to: index) }
            controllers[index].initiating = nil
            succeed(command.opcode, to: index)
            // §7.8.13: the cancelled attempt ends with Unknown Connection Identifier.
            send(LEConnectionComplete(status: .unknownConnectionIdentifier, connectionHandle: 0, role: .central,
                                      peerAddress: BluetoothAddress(0), connectionInterval: 0, peripheralLatency: 0,
                                      supervisionTimeout: 0), to: index)
        case Disconnect.opcode:
            guard let c = try? Disconnect(parameters: p) else { return invalid(command.opcode, to: index, status: true) }
            guard let id = controllers[index].handles[c.connectionHandle] else {
                return status(command.opcode, .unknownConnectionIdentifier, to: index)
            }
            status(command.opcode, .success, to: index)
            disconnect(id, initiator: index, reason: c.reason)
        case LEConnectionUpdate.opcode:
            guard let c = try? LEConnectionUpdate(parameters: p) else { return invalid(command.opcode, to: index, status: true) }
            guard let id = controllers[index].handles[c.connectionHandle] else {
                return status(command.opcode, .unknownConnectionIdentifier, to: index)
            }
            status(command.opcode, .success, to: index)
            updateConnection(id, to: c.connectionParameters)
        case LERand.opcode:
            complete(LERand.self, .init(status: .success, randomNumber: .random(in: .min ... .max)), to: index)
        case LEEnableEncryption.opcode:
            enableEncryption(p, from: index)
        case LELongTermKeyRequestReply.opcode:
            longTermKeyRequestReply(p, from: index)
        case LELongTermKeyRequestNegativeReply.opcode:
            longTermKeyRequestNegativeReply(p, from: index)
        case ReadEncryptionKeySize.opcode:
            readEncryptionKeySize(p, from: index)
        default:
            if !executePrivacy(command, from: index) { fail(command.opcode, .unknownCommand, to: index) }
        }
    }

    // MARK: Answers

    mutating func complete<C: HCICommand>(_ command: C.Type, _ parameters: C.ReturnParameters, to index: Int)
    where C.ReturnParameters: ByteEncodable {
        send(CommandComplete(command: command, returnParameters: parameters), to: index)
    }

    /// Command Complete whose return parameters are only a status.
    mutating func fail(_ opcode: HCIOpcode, _ status: HCIStatus, to index: Int) {
        send(CommandComplete(numHCICommandPackets: 1, commandOpcode: opcode, returnParameters: [status.rawValue]), to: index)
    }

    mutating func succeed(_ opcode: HCIOpcode, to index: Int) { fail(opcode, .success, to: index) }

    mutating func status(_ opcode: HCIOpcode, _ status: HCIStatus, to index: Int) {
        send(CommandStatus(status: status, numHCICommandPackets: 1, commandOpcode: opcode), to: index)
    }

    /// Parameters that do not parse: Invalid HCI Command Parameters, in the kind of
    /// event the command is answered with.
    mutating func invalid(_ opcode: HCIOpcode, to index: Int, status useStatus: Bool = false) {
        if useStatus { status(opcode, .invalidCommandParameters, to: index) } else { fail(opcode, .invalidCommandParameters, to: index) }
    }
}
