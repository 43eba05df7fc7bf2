import SwiftATTCore
@testable import SwiftATTHCI
import Testing
import TestSupport

/// btsnoop reading and writing, and the real capture of Bumble's host start-up, GATT
/// session and disconnection (Fixtures/captures/README.md).
@Suite("btsnoop and the Bumble capture")
struct CaptureTests {
    static let capture = "captures/gatt-mtu247-central.btsnoop"

    @Test("writer → reader round trip keeps type, direction, timestamp and bytes")
    func roundTrip() throws {
        var w = BTSnoop.Writer()
        let t0: Int64 = 1_735_689_600_000_000
        w.append(.command, bytes("030c00")[...], direction: .sent, timestamp: t0)
        w.append(.event, bytes("0e0401030c00")[...], direction: .received, timestamp: t0 + 1000)
        w.append(.aclData, bytes("01200300aabbcc")[...], direction: .sent, timestamp: t0 + 2000)
        w.append(.aclData, bytes("01200100dd")[...], direction: .received, timestamp: t0 + 3000)
        w.append(.isoData, bytes("01600000")[...], direction: .received, timestamp: -5)
        let records = try BTSnoop.records(in: w.bytes)
        #expect(records.map(\.packetType) == [.command, .event, .aclData, .aclData, .isoData])
        #expect(records.map(\.direction) == [.sent, .received, .sent, .received, .received])
        #expect(records.map(\.timestamp) == [t0, t0 + 1000, t0 + 2000, t0 + 3000, -5])
        #expect(Array(records[2].packet) == bytes("01200300aabbcc"))
        #expect(records.allSatisfy { $0.originalLength == $0.packet.count + 1 })
        #expect(Array(w.bytes.prefix(16)) == Array("btsnoop".utf8) + [0, 0, 0, 0, 1, 0, 0, 0x03, 0xEA])
    }

    @Test("malformed capture files fail with typed errors")
    func malformed() throws {
        #expect(throws: HCIDecodingError.notBTSnoop) { try BTSnoop.records(in: [UInt8](repeating: 0, count: 16)) }
        #expect(throws: HCIDecodingError.truncated("btsnoop header", need: 16, have: 7)) {
            try BTSnoop.records(in: Array("btsnoop".utf8))
        }
        var w = BTSnoop.Writer()
        w.append(.event, bytes("0e0401030c00")[...], direction: .received, timestamp: 0)
        let cut = Array(w.bytes.dropLast(2))
        #expect(throws: HCIDecodingError.truncated("btsnoop record 0", need: 31, have: 29)) { try BTSnoop.records(in: cut) }
        var badType = w.bytes
        badType[16 + 24] = 0x09
        #expect(throws: HCIDecodingError.unknownPacketType(0x09)) { try BTSnoop.records(in: badType) }
        var badVersion = w.bytes
        badVersion[11] = 2
        #expect(throws: HCIDecodingError.unsupportedBTSnoop(version: 2, datalink: 1002)) { try BTSnoop.records(in: badVersion) }
        // Every prefix of a valid file reads or fails, never traps.
        for n in 0..<w.bytes.count { _ = try? BTSnoop.records(in: Array(w.bytes.prefix(n))) }
    }

    static let allCaptures = [capture, "hci/scan-pair-central.btsnoop", "hci/scan-pair-peripheral.btsnoop"]

    @Test("every HCI event decodes and re-encodes; every Command Complete's return parameters decode",
          arguments: allCaptures)
    func everyEventDecodes(_ file: String) throws {
        let records = try BTSnoop.records(in: FixtureFiles.bytes(file))
        var events = 0
        for (i, r) in records.enumerated() where r.packetType == .event {
            events += 1
            let event = try HCIEvent(parsing: r.packet)
            #expect(r.direction == .received)
            if case .unknown = event { Issue.record("record \(i + 1): event 0x\(String(event.code, radix: 16)) not decoded") }
            if case .leMeta(.unknown) = event { Issue.record("record \(i + 1): LE subevent not decoded") }
            #expect(event.encoded() == Array(r.packet), "record \(i + 1) re-encodes to its bytes")
            if case let .commandComplete(complete) = event {
                let decoded = try #require(try complete.decodedReturnParameters(), "record \(i + 1)")
                // Bumble refuses LE Set Data Length with a status alone (BENCH.md quirk 8).
                let expected: HCIStatus = complete.commandOpcode == LESetDataLength.opcode ? .unknownCommand : .success
                #expect(decoded.status == expected, "record \(i + 1)")
            }
        }
        #expect(events > 30)
    }

    @Test("every command has a name, decodes to its typed command and re-encodes", arguments: allCaptures)
    func everyCommandDecodes(_ file: String) throws {
        for r in try BTSnoop.records(in: FixtureFiles.bytes(file)) where r.packetType == .command {
            let packet = try HCICommandPacket(parsing: r.packet)
            let name = try #require(packet.opcode.name, "\(packet.opcode) has no name")
            let command = try #require(try packet.decodedCommand())
            #expect(command.packet == packet, "\(name) re-encodes to its bytes")
        }
    }

    @Test("Bumble's host start-up sequence, by name")
    func startUpSequence() throws {
        let records = try BTSnoop.records(in: FixtureFiles.bytes(Self.capture))
        let names = try records.filter { $0.packetType == .command }.map { try HCICommandPacket(parsing: $0.packet).opcode.name }
        #expect(names == [
            "Reset", "Read Local Supported Commands", "Read Local Version Information", "LE Read Local Supported Features",
            "Read Local Supported Features", "Set Event Mask", "Set Event Mask Page 2", "LE Set Event Mask",
            "Read Buffer Size", "LE Read Buffer Size [v2]", "LE Read Suggested Default Data Length",
            "LE Write Suggested Default Data Length", "Read BD_ADDR", "LE Set Random Address", "LE Create Connection",
            "Disconnect",
        ])
    }

    @Test("the connection completes with the peer C0:5A:17:00:00:02 (random)")
    func connectionComplete() throws {
        let records = try BTSnoop.records(in: FixtureFiles.bytes(Self.capture))
        var peers: [BluetoothAddress] = []
        for r in records where r.packetType == .event {
            switch try HCIEvent(parsing: r.packet) {
            case let .leMeta(.connectionComplete(c)):
                #expect(c.status == .success)
                #expect(c.role == .central)
                #expect(c.peerAddressType == .random)
                peers.append(c.peerAddress)
            case let .leMeta(.enhancedConnectionComplete(c)):
                peers.append(c.peerAddress)
            case let .leMeta(.enhancedConnectionCompleteV2(c)):
                peers.append(c.connection.peerAddress)
            default: break
            }
        }
        #expect(peers == [BluetoothAddress(0xC05A_1700_0002, kind: .random)])
        #expect(peers.first?.description == "C0:5A:17:00:00:02")
        #expect(peers.first?.randomSubtype == .static)
    }

    @Test("the capture's controller: capability bits as BENCH.md describes them")
    func capabilities() throws {
        let records = try BTSnoop.records(in: FixtureFiles.bytes(Self.capture))
        var commands: HCISupportedCommands?
        var features: LEFeatures?
        for r in records where r.packetType == .event {
            guard case let .commandComplete(c) = try HCIEvent(parsing: r.packet) else { continue }
            if c.commandOpcode == ReadLocalSupportedCommands.opcode {
                commands = try c.returnParameters(for: ReadLocalSupportedCommands.self).supportedCommands
            }
            if c.commandOpcode == LEReadLocalSupportedFeatures.opcode {
                features = try c.returnParameters(for: LEReadLocalSupportedFeatures.self).leFeatures
            }
        }
        let supported = try #require(commands)
        // Quirk 8: the extended commands are implemented but not listed; the legacy ones are.
        #expect(!supported.supportsLESetExtendedAdvertisingParameters)
        #expect(!supported.supportsLESetExtendedScanParameters)
        #expect(!supported.supportsLEExtendedCreateConnection)
        for c: HCISupportedCommands.Command in [.reset, .setEventMask, .readBDADDR, .leSetRandomAddress, .leCreateConnection,
                                                .leSetScanParameters, .leSetAdvertisingParameters, .leSetDataLength,
                                                .leSetPHY, .leEncrypt, .leReadBufferSizeV2, .setEventMaskPage2] {
            #expect(supported.supports(c), "\(c)")
        }
        let le = try #require(features)
        #expect(le.contains(.leExtendedAdvertising))
        #expect(le.contains([.leEncryption, .leDataPacketLengthExtension, .llPrivacy, .extendedScannerFilterPolicies,
                             .le2MPHY, .leCodedPHY]))
    }
}

/// Bit positions checked against Core 5.4 Vol 4 Part E §6.27 and Vol 6 Part B §4.6.
@Suite("Capability bits")
struct CapabilityBitTests {
    @Test("supported-commands positions of the extended LE commands")
    func supportedCommandPositions() {
        #expect(HCISupportedCommands.Command.leSetAdvertisingSetRandomAddress == .init(octet: 36, bit: 1))
        #expect(HCISupportedCommands.Command.leSetExtendedAdvertisingParameters == .init(octet: 36, bit: 2))
        #expect(HCISupportedCommands.Command.leSetExtendedScanParameters == .init(octet: 37, bit: 5))
        #expect(HCISupportedCommands.Command.leExtendedCreateConnection == .init(octet: 37, bit: 7))
        #expect(HCISupportedCommands.Command.readEncryptionKeySize == .init(octet: 20, bit: 4))
        #expect(HCISupportedCommands.Command.leRand == .init(octet: 27, bit: 7))
        #expect(HCISupportedCommands.Command.leEnableEncryption == .init(octet: 28, bit: 0))
        #expect(HCISupportedCommands.Command.leLongTermKeyRequestNegativeReply == .init(octet: 28, bit: 2))
        var octets = [UInt8](repeating: 0, count: 64)
        octets[36] = 1 << 2
        octets[37] = 1 << 5 | 1 << 7
        let s = HCISupportedCommands(octets: octets)
        #expect(s.supportsLESetExtendedAdvertisingParameters)
        #expect(s.supportsLESetExtendedScanParameters)
        #expect(s.supportsLEExtendedCreateConnection)
        #expect(!s.supports(.leSetAdvertisingSetRandomAddress))
        #expect(!s.supports(octet: 64, bit: 0) && !s.supports(octet: -1, bit: 0) && !s.supports(octet: 36, bit: 8))
        #expect(HCISupportedCommands(octets: [0xFF]).octets.count == 64)
        #expect(HCISupportedCommands(octets: [UInt8](repeating: 1, count: 70)).octets.count == 64)
    }

    @Test("supported-commands positions of the resolving-list commands, and Bumble lists them all")
    func resolvingListPositions() {
        typealias C = HCISupportedCommands.Command
        let expected: [(C, Int, Int)] = [
            (.leAddDeviceToResolvingList, 34, 3), (.leRemoveDeviceFromResolvingList, 34, 4), (.leClearResolvingList, 34, 5),
            (.leReadResolvingListSize, 34, 6), (.leReadPeerResolvableAddress, 34, 7), (.leReadLocalResolvableAddress, 35, 0),
            (.leSetAddressResolutionEnable, 35, 1), (.leSetResolvablePrivateAddressTimeout, 35, 2), (.leSetPrivacyMode, 39, 2),
        ]
        let bumble = HCISupportedCommands(octets: bytes(bumbleSupportedCommands))
        for (command, octet, bit) in expected {
            #expect(command == C(octet: octet, bit: bit))
            // Listed, though 0.0.236 never answers Remove or either Read.
            #expect(bumble.supports(command), "\(command)")
        }
        #expect(!HCISupportedCommands(octets: []).supports(.leSetPrivacyMode))
    }

    @Test("LE feature bits")
    func leFeatureBits() {
        let named: [(LEFeatures, Int)] = [
            (.leEncryption, 0), (.leDataPacketLengthExtension, 5), (.llPrivacy, 6), (.extendedScannerFilterPolicies, 7),
            (.le2MPHY, 8), (.leCodedPHY, 11), (.leExtendedAdvertising, 12), (.lePeriodicAdvertising, 13),
            (.channelSelectionAlgorithm2, 14),
        ]
        for (feature, bit) in named {
            #expect(feature.rawValue == 1 << UInt64(bit))
            #expect(LEFeatures(rawValue: 1 << UInt64(bit)).contains(bit: bit))
        }
        #expect(!LEFeatures.all.contains(bit: 64))
    }

    @Test("event mask bit n is event code n + 1")
    func eventMaskBits() {
        #expect(SetEventMask.Mask(eventCodes: [0x05, 0x08, 0x0C, 0x10, 0x30, 0x3E])
            == [.disconnectionComplete, .encryptionChange, .readRemoteVersionInformationComplete, .hardwareError,
                .encryptionKeyRefreshComplete, .leMeta])
        #expect(LESetEventMask.Mask(subeventCodes: [0x01, 0x02, 0x03, 0x04, 0x05])
            == LESetEventMask.Mask.default)
        #expect(LESetEventMask.Mask(subeventCodes: [0x0A, 0x0C, 0x0D, 0x12, 0x29])
            == [.enhancedConnectionComplete, .phyUpdateComplete, .extendedAdvertisingReport, .advertisingSetTerminated,
                .enhancedConnectionCompleteV2])
        #expect(SetEventMask.Mask(eventCodes: [0, 65]) == [])
    }
}

extension LEFeatures {
    static let all = LEFeatures(rawValue: .max)
}

/// Fixtures/hci/scan-pair-*.btsnoop: Bumble hosts advertising, scanning, connecting,
/// pairing (Fixtures/hci/README.md).
@Suite("Bumble scan/pair capture")
struct ScanPairCaptureTests {
    static func events(_ role: String) throws -> [HCIEvent] {
        try BTSnoop.records(in: FixtureFiles.bytes("hci/scan-pair-\(role).btsnoop"))
            .filter { $0.packetType == .event }.map { try HCIEvent(parsing: $0.packet) }
    }

    static func commands(_ role: String) throws -> [any HCICommand] {
        try BTSnoop.records(in: FixtureFiles.bytes("hci/scan-pair-\(role).btsnoop"))
            .filter { $0.packetType == .command }
            .compactMap { try HCICommandPacket(parsing: $0.packet).decodedCommand() }
    }

    static let advertisingData = Array([0x02, 0x01, 0x06, 10, 0x09] + Array("swift-att".utf8))
    static let scanResponseData: [UInt8] = [0x05, 0x03, 0x0D, 0x18, 0x0F, 0x18]

    @Test("the scanner gets extended reports of the peer's advertising and scan response data")
    func extendedReports() throws {
        var reports: [LEExtendedAdvertisingReport.Report] = []
        for case let .leMeta(.extendedAdvertisingReport(e)) in try Self.events("central") { reports += e.reports }
        let fromPeer = reports.filter { $0.address == peripheral && $0.addressType == .random }
        #expect(!fromPeer.isEmpty)
        #expect(fromPeer.contains { Array($0.data) == Self.advertisingData && !$0.eventType.contains(.scanResponse) })
        #expect(fromPeer.contains { $0.eventType.contains(.scanResponse) })
        for r in fromPeer {
            #expect(r.eventType.dataStatus == .complete)
            #expect(r.primaryPHY == .le1M)
            #expect(r.rssi == -50, "BENCH.md quirk 5")
        }
    }

    @Test("the scanner used extended scanning, then the legacy LE Create Connection")
    func scannerCommands() throws {
        let commands = try Self.commands("central")
        let params = try #require(commands.compactMap { $0 as? LESetExtendedScanParameters }.first)
        #expect(params.ownAddressType == .random)
        #expect(params.le1M?.scanType == .active)
        let enables = commands.compactMap { $0 as? LESetExtendedScanEnable }.map(\.enable)
        #expect(enables == [true, false])
        let create = try #require(commands.compactMap { $0 as? LECreateConnection }.first)
        #expect(create.peerAddress == peripheral)
        #expect(commands.contains { $0 is LEEnableEncryption })
        #expect(commands.contains { $0 is LEConnectionUpdate })
    }

    @Test("the advertiser used an extended set with legacy PDUs and its data")
    func advertiserCommands() throws {
        let commands = try Self.commands("peripheral")
        let params = try #require(commands.compactMap { $0 as? LESetExtendedAdvertisingParameters }.first)
        #expect(params.advertisingEventProperties.contains(.legacy))
        #expect(params.advertisingEventProperties.contains(.connectable))
        let random = try #require(commands.compactMap { $0 as? LESetAdvertisingSetRandomAddress }.first)
        #expect(random.randomAddress == peripheral)
        let data = try #require(commands.compactMap { $0 as? LESetExtendedAdvertisingData }.first)
        #expect(Array(data.advertisingData) == Self.advertisingData)
        let response = try #require(commands.compactMap { $0 as? LESetExtendedScanResponseData }.first)
        #expect(Array(response.scanResponseData) == Self.scanResponseData)
        let enable = try #require(commands.compactMap { $0 as? LESetExtendedAdvertisingEnable }.first)
        #expect(enable.enable && enable.sets.map(\.advertisingHandle) == [params.advertisingHandle])
        #expect(commands.contains { $0 is LELongTermKeyRequestReply })
    }

    @Test("connection, features, update, encryption and disconnection events on both sides")
    func connectionEvents() throws {
        let central = try Self.events("central")
        let peripheralEvents = try Self.events("peripheral")
        var handle: UInt16?
        for case let .leMeta(.connectionComplete(c)) in central {
            #expect(c.role == .central && c.peerAddress == peripheral)
            handle = c.connectionHandle
        }
        let h = try #require(handle)
        #expect(central.contains { if case let .leMeta(.readRemoteFeaturesComplete(f)) = $0 {
            f.connectionHandle == h && f.leFeatures.contains(.leEncryption)
        } else { false } })
        #expect(central.contains { if case let .leMeta(.connectionUpdateComplete(u)) = $0 {
            u.connectionHandle == h && u.status == .success
        } else { false } })
        #expect(central.contains { if case let .encryptionChange(e) = $0 { e.connectionHandle == h && e.isEncrypted } else { false } })
        #expect(central.contains { if case let .disconnectionComplete(d) = $0 { d.connectionHandle == h } else { false } })

        var peripheralHandle: UInt16?
        for case let .leMeta(.connectionComplete(c)) in peripheralEvents {
            #expect(c.role == .peripheral && c.peerAddress == SwiftATTCore.BluetoothAddress(0xC05A_1700_0001, kind: .random))
            peripheralHandle = c.connectionHandle
        }
        let ph = try #require(peripheralHandle)
        #expect(peripheralEvents.contains { if case let .leMeta(.advertisingSetTerminated(t)) = $0 {
            t.status == .success && t.connectionHandle == ph
        } else { false } })
        #expect(peripheralEvents.contains { if case let .leMeta(.longTermKeyRequest(r)) = $0 {
            r.connectionHandle == ph && r.randomNumber == 0 && r.encryptedDiversifier == 0  // LE Secure Connections
        } else { false } })
        #expect(peripheralEvents.contains { if case let .encryptionChange(e) = $0 { e.isEncrypted } else { false } })
    }
}
