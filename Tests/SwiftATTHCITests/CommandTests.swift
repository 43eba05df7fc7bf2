import SwiftATTCore
@testable import SwiftATTHCI
import Testing

/// Every command: golden vectors, round trips, the name/parser registry, truncations.
@Suite("Commands")
struct CommandTests {
    @Test("decodes to the listed command", arguments: CommandVector.all)
    func decodes(_ v: CommandVector) throws {
        let parsed = try v.type.init(parameters: v.parameters[...])
        #expect(v.matches(parsed), "\(parsed)")
    }

    @Test("encodes to exactly the listed parameters", arguments: CommandVector.all)
    func encodes(_ v: CommandVector) {
        let packet = v.command.packet
        #expect(packet.opcode == v.type.opcode)
        #expect(v.command.parametersLength == v.parameters.count)
        #expect(Array(packet.parameters) == v.parameters)
        #expect(packet.encoded() == commandPacketBytes(v.type.opcode, v.parameters))
    }

    @Test("frames for H4 as the type byte and the encoded packet", arguments: CommandVector.all)
    func framesForH4(_ v: CommandVector) {
        let packet = v.command.packet
        #expect(packet.withH4Bytes { Array($0) } == [0x01] + commandPacketBytes(v.type.opcode, v.parameters))
    }

    /// H4 framing from the stack, golden: Reset (no parameters, Core 5.4 Vol 4 Part E
    /// §7.3.2); parameters taken from a slice that does not start at 0; the longest
    /// parameters a command can carry (255), and more, cut at 255 as `encode` cuts the
    /// length byte.
    @Test func h4FramingGoldenAndLimits() {
        #expect(HCICommandPacket(opcode: Reset.opcode, parameters: []).withH4Bytes { Array($0) } == [0x01, 0x03, 0x0C, 0x00])
        let bytes: [UInt8] = [9, 9, 0xA0, 0x00, 0xB1]
        let sliced = HCICommandPacket(opcode: HCIOpcode(rawValue: 0x2006), parameters: bytes[2...])
        #expect(sliced.withH4Bytes { Array($0) } == [0x01, 0x06, 0x20, 0x03, 0xA0, 0x00, 0xB1])
        let longest = (0..<255).map { UInt8(truncatingIfNeeded: $0) }
        let full = HCICommandPacket(opcode: HCIOpcode(rawValue: 0xFC00), parameters: longest[...])
        #expect(full.withH4Bytes { Array($0) } == [0x01, 0x00, 0xFC, 0xFF] + longest)
        #expect(HCICommandPacket.maximumH4Length == 259)
        let over = HCICommandPacket(opcode: HCIOpcode(rawValue: 0xFC00), parameters: (longest + [1, 2])[...])
        #expect(over.withH4Bytes { Array($0) } == [0x01, 0x00, 0xFC, 0xFF] + longest)
    }

    @Test("a whole packet decodes through the registry and re-encodes", arguments: CommandVector.all)
    func decodesThroughRegistry(_ v: CommandVector) throws {
        let bytes = commandPacketBytes(v.type.opcode, v.parameters)
        let packet = try HCICommandPacket(parsing: bytes[...])
        let command = try #require(try packet.decodedCommand())
        #expect(v.matches(command))
        #expect(command.packet.encoded() == bytes)
        #expect(packet.opcode.name != nil)
    }

    @Test("every proper prefix of the parameters throws a typed error or decodes", arguments: CommandVector.all)
    func truncations(_ v: CommandVector) {
        let p = v.parameters
        for n in 0..<p.count {
            // Legacy advertising data may be cut after its significant octets; anything
            // else that is short must fail.
            do {
                let c = try v.type.init(parameters: p[..<n])
                #expect(v.type == LESetAdvertisingData.self || v.type == LESetScanResponseData.self,
                        "\(v.name): \(n) of \(p.count) octets decoded as \(c)")
            } catch {}
        }
        // One octet too many never decodes.
        #expect(throws: HCIDecodingError.self) { try v.type.init(parameters: (p + [0])[...]) }
    }

    @Test("parameters decode from a slice that does not start at index 0", arguments: CommandVector.all)
    func decodesFromOffsetSlice(_ v: CommandVector) throws {
        let padded = [0xEE, 0xEE, 0xEE] + v.parameters + [0xEE]
        let parsed = try v.type.init(parameters: padded[3..<(padded.count - 1)])
        #expect(v.matches(parsed))
    }

    @Test("the registry: unique opcodes and names, every known command has a vector")
    func registry() {
        let entries = HCICommandNames.all
        #expect(Set(entries.map(\.opcode.rawValue)).count == entries.count)
        #expect(Set(entries.map(\.name)).count == entries.count)
        let covered = Set(CommandVector.all.map { $0.type.opcode.rawValue })
        for e in entries {
            #expect(covered.contains(e.opcode.rawValue), "\(e.name) has no vector")
            #expect(e.opcode.name == e.name)
        }
        #expect(HCIOpcode(ogf: 0x3F, ocf: 1).name == nil)
        #expect(HCIOpcode(ogf: 0x3F, ocf: 1).description == "OGF 0x3f OCF 0x001 (0xfc01)")
        #expect(LESetScanEnable.opcode.description == "LE Set Scan Enable (0x200c)")
        #expect(LESetExtendedAdvertisingParameters.opcode.name == "LE Set Extended Advertising Parameters")
    }

    @Test("an unknown opcode decodes to nil, not an error")
    func unknownOpcode() throws {
        let packet = HCICommandPacket(opcode: HCIOpcode(ogf: 0x3F, ocf: 0x123), parameters: [1, 2, 3])
        #expect(try packet.decodedCommand() == nil)
    }

    @Test("commands answered by Command Status say so")
    func completions() {
        let byStatus: [any HCICommand.Type] = [
            Disconnect.self, ReadRemoteVersionInformation.self, LECreateConnection.self, LEConnectionUpdate.self,
            LEReadRemoteFeatures.self, LESetPHY.self, LEEnableEncryption.self, LEExtendedCreateConnection.self,
        ]
        let statusOpcodes = Set(byStatus.map { $0.opcode.rawValue })
        for e in HCICommandNames.all {
            let expected: HCICommandCompletion = statusOpcodes.contains(e.opcode.rawValue) ? .commandStatus : .commandComplete
            #expect(e.type.completion == expected, "\(e.name)")
        }
    }

    @Test("opcodes are the spec's OGF/OCF pairs")
    func opcodes() {
        let expected: [(any HCICommand.Type, UInt16)] = [
            (Disconnect.self, 0x0406), (ReadRemoteVersionInformation.self, 0x041D), (SetEventMask.self, 0x0C01),
            (Reset.self, 0x0C03), (SetEventMaskPage2.self, 0x0C63), (ReadLocalVersionInformation.self, 0x1001),
            (ReadLocalSupportedCommands.self, 0x1002), (ReadLocalSupportedFeatures.self, 0x1003),
            (ReadBufferSize.self, 0x1005), (ReadBDADDR.self, 0x1009), (ReadEncryptionKeySize.self, 0x1408),
            (LESetEventMask.self, 0x2001),
            (LEReadBufferSize.self, 0x2002), (LEReadLocalSupportedFeatures.self, 0x2003), (LESetRandomAddress.self, 0x2005),
            (LESetAdvertisingParameters.self, 0x2006), (LESetAdvertisingData.self, 0x2008),
            (LESetScanResponseData.self, 0x2009), (LESetAdvertisingEnable.self, 0x200A), (LESetScanParameters.self, 0x200B),
            (LESetScanEnable.self, 0x200C), (LECreateConnection.self, 0x200D), (LECreateConnectionCancel.self, 0x200E),
            (LEClearFilterAcceptList.self, 0x2010), (LEAddDeviceToFilterAcceptList.self, 0x2011),
            (LEConnectionUpdate.self, 0x2013), (LEReadRemoteFeatures.self, 0x2016), (LEEncrypt.self, 0x2017),
            (LERand.self, 0x2018), (LEEnableEncryption.self, 0x2019), (LELongTermKeyRequestReply.self, 0x201A),
            (LELongTermKeyRequestNegativeReply.self, 0x201B), (LESetDataLength.self, 0x2022),
            (LEAddDeviceToResolvingList.self, 0x2027), (LERemoveDeviceFromResolvingList.self, 0x2028),
            (LEClearResolvingList.self, 0x2029), (LEReadResolvingListSize.self, 0x202A),
            (LEReadPeerResolvableAddress.self, 0x202B), (LEReadLocalResolvableAddress.self, 0x202C),
            (LESetAddressResolutionEnable.self, 0x202D), (LESetResolvablePrivateAddressTimeout.self, 0x202E),
            (LESetPrivacyMode.self, 0x204E),
            (LEReadMaximumDataLength.self, 0x202F), (LESetPHY.self, 0x2032),
            (LESetExtendedAdvertisingParameters.self, 0x2036), (LESetExtendedAdvertisingData.self, 0x2037),
            (LESetExtendedScanResponseData.self, 0x2038), (LESetExtendedAdvertisingEnable.self, 0x2039),
            (LERemoveAdvertisingSet.self, 0x203C), (LEClearAdvertisingSets.self, 0x203D),
            (LESetExtendedScanParameters.self, 0x2041), (LESetExtendedScanEnable.self, 0x2042),
            (LEExtendedCreateConnection.self, 0x2043), (LEReadBufferSizeV2.self, 0x2060),
        ]
        for (type, raw) in expected { #expect(type.opcode.rawValue == raw, "\(type)") }
    }

    @Test("convenience values: milliseconds, derived PHY masks, address kinds")
    func conveniences() throws {
        let adv = LESetAdvertisingParameters(advertisingIntervalMin: 0x0800, advertisingIntervalMax: 0x0A00)
        #expect(adv.advertisingIntervalMinMilliseconds == 1280)
        #expect(adv.advertisingIntervalMaxMilliseconds == 1600)
        let c = LEConnectionParameters(intervalMin: 6, intervalMax: 0x0C80, maxLatency: 0, supervisionTimeout: 0x0C80,
                                       minCELength: 2, maxCELength: 4)
        #expect(c.intervalMinMilliseconds == 7.5)
        #expect(c.intervalMaxMilliseconds == 4000)
        #expect(c.supervisionTimeoutMilliseconds == 32000)
        #expect(c.minCELengthMilliseconds == 1.25)
        #expect(c.maxCELengthMilliseconds == 2.5)
        #expect(LESetExtendedScanEnable(enable: true, duration: 0x01F4, period: 2).durationMilliseconds == 5000)
        #expect(LESetExtendedScanEnable(enable: true, duration: 0x01F4, period: 2).periodMilliseconds == 2560)
        #expect(LESetExtendedAdvertisingEnable.AdvertisingSet(advertisingHandle: 0, duration: 300).durationMilliseconds == 3000)
        let scan = LESetExtendedScanParameters(le1M: nil, leCoded: .init(scanType: .passive, scanInterval: 16, scanWindow: 16))
        #expect(scan.scanningPHYs == .leCoded)
        #expect(scan.leCoded?.scanWindowMilliseconds == 10)
        let identity = LECreateConnection(scanInterval: 16, scanWindow: 16, peerAddress: BluetoothAddress(1, kind: .random),
                                          peerAddressType: .publicIdentity, connectionParameters: c)
        #expect(identity.peerAddress.kind == .public, "the type octet decides the kind")
        let parsed = try LECreateConnection(parameters: identity.packet.parameters)
        #expect(parsed == identity)
    }
}

/// Command Complete return parameters: golden vectors, round trips, short error blocks.
@Suite("Return parameters")
struct ReturnParameterTests {
    @Test("decode to the listed values and encode back", arguments: ReturnVector.all)
    func roundTrip(_ v: ReturnVector) throws {
        let b = bytes(v.hex)
        #expect(try v.parse(b))
        #expect(v.expected.encodedLength == b.count)
        #expect(v.expected.encoded() == b)
    }

    @Test("decode through Command Complete and the registry", arguments: ReturnVector.all)
    func throughCommandComplete(_ v: ReturnVector) throws {
        let complete = CommandComplete(numHCICommandPackets: 1, commandOpcode: v.opcode, returnParameters: bytes(v.hex)[...])
        let decoded = try #require(try complete.decodedReturnParameters())
        #expect(v.matches(decoded))
        #expect(complete.status == v.expected.status)
    }

    @Test("every prefix shorter than the block throws, unless it is an error status alone", arguments: ReturnVector.all)
    func truncations(_ v: ReturnVector) {
        let b = bytes(v.hex)
        for n in 0..<b.count {
            #expect(throws: HCIDecodingError.self, "\(v.name) cut to \(n)") { _ = try v.parse(Array(b[..<n])) }
        }
    }

    @Test("an error status alone decodes, remaining fields zero")
    func errorStatusAlone() throws {
        let r = try LESetDataLength.ReturnParameters(returnParameters: [0x01])
        #expect(r == .init(status: .unknownCommand, connectionHandle: 0))
        let v = try ReadLocalSupportedCommands.ReturnParameters(returnParameters: [0x0C])
        #expect(v.status == .commandDisallowed)
        #expect(v.supportedCommands.octets == [UInt8](repeating: 0, count: 64))
        let phy = try LEReadPHY.ReturnParameters(returnParameters: [0x02, 0x01, 0x00])
        #expect(phy.status == .unknownConnectionIdentifier)
        #expect(throws: HCIDecodingError.truncated("LE Read PHY return parameters", need: 5, have: 0)) {
            try LEReadPHY.ReturnParameters(returnParameters: [])
        }
    }
}
