import SwiftATTCore
import SwiftATTHCI
import SwiftATTLoopback
import SwiftATTTransport
import Testing

/// Link-layer encryption in the emulated controllers, driven with raw HCI: the central's
/// LE Enable Encryption, the peripheral's LE Long Term Key Request and its answers, and
/// the events each side gets (Core 5.4 Vol 4 Part E §7.8.24–§7.8.26, §7.7.8, §7.7.39,
/// §7.7.65.5; Vol 6 Part B §5.1.3).
@Suite struct LoopbackEncryptionTests {
    static let key = UInt128(0x0F0E_0D0C_0B0A_0908_0706_0504_0302_0100)
    static let otherKey = UInt128(0x0011_2233_4455_6677_8899_AABB_CCDD_EEFF)

    /// Two raw hosts on one link, connected.
    struct Pair {
        let link: LoopbackLink
        let peripheralController: LoopbackController
        let centralController: LoopbackController
        let peripheral: any HCITransport
        let central: any HCITransport
        let handle: UInt16

        init() throws {
            link = LoopbackLink()
            peripheralController = link.addController()
            centralController = link.addController()
            peripheral = try peripheralController.open()
            central = try centralController.open()
            handle = try LoopbackHCITests.connect(peripheral, central)
        }

        func close() {
            peripheral.close()
            central.close()
        }
    }

    static func events(_ transport: any HCITransport) throws -> [HCIEvent] { try LoopbackHCITests.events(transport) }

    /// Nothing waits for the host (a short wait: every event is queued before `send` returns).
    static func silent(_ transport: any HCITransport) throws -> Bool {
        try transport.receive(timeout: .milliseconds(50)).isEmpty
    }

    static func commandStatus(_ status: HCIStatus, _ opcode: HCIOpcode) -> HCIEvent {
        .commandStatus(CommandStatus(status: status, numHCICommandPackets: 1, commandOpcode: opcode))
    }

    static func keyReplyComplete<C: HCICommand>(_ command: C.Type, _ status: HCIStatus, _ handle: UInt16) -> HCIEvent
    where C.ReturnParameters == HCIConnectionHandleReturn {
        .commandComplete(CommandComplete(command: C.self, returnParameters: .init(status: status, connectionHandle: handle)))
    }

    static func encrypted(_ handle: UInt16) -> HCIEvent {
        .encryptionChange(EncryptionChange(connectionHandle: handle, encryptionEnabled: 0x01))
    }

    static func acl(_ handle: UInt16, _ n: UInt8) -> HCIPacket {
        HCIPacket(type: .aclData, bytes: ACLDataPacket(handle: handle, packetBoundary: .firstNonFlushable,
                                                       data: [0x01, 0x00, 0x04, 0x00, n]).encoded()[...])
    }

    /// The central asks for encryption with `key`; checks the Command Status and the
    /// peripheral's LE Long Term Key Request.
    static func start(_ pair: Pair, key: UInt128, randomNumber: UInt64 = 0, encryptedDiversifier: UInt16 = 0) throws {
        try pair.central.send(LEEnableEncryption(connectionHandle: pair.handle, randomNumber: randomNumber,
                                                 encryptedDiversifier: encryptedDiversifier, longTermKey: key).packet)
        #expect(try events(pair.central) == [commandStatus(.success, LEEnableEncryption.opcode)])
        #expect(try events(pair.peripheral) == [.leMeta(.longTermKeyRequest(.init(
            connectionHandle: pair.handle, randomNumber: randomNumber, encryptedDiversifier: encryptedDiversifier)))])
    }

    /// Encrypts the link with `key` on both sides, and takes the events that say so.
    static func encrypt(_ pair: Pair, key: UInt128) throws {
        try start(pair, key: key)
        try pair.peripheral.send(LELongTermKeyRequestReply(connectionHandle: pair.handle, longTermKey: key).packet)
        _ = try events(pair.peripheral)
        _ = try events(pair.central)
        #expect(pair.link.encryption(ofConnection: pair.handle) == .encrypted(longTermKey: key))
    }

    /// The key size each side reads for the link.
    static func keySize(_ transport: any HCITransport, _ handle: UInt16) throws -> ReadEncryptionKeySize.ReturnParameters? {
        guard case let .commandComplete(c) = try LoopbackHCITests.exchange(transport, ReadEncryptionKeySize(connectionHandle: handle).packet) else {
            return nil
        }
        return try c.returnParameters(for: ReadEncryptionKeySize.self)
    }

    @Test func theSameKeyOnBothSidesEncryptsTheLink() throws {
        let pair = try Pair()
        defer { pair.close() }
        #expect(pair.link.encryption(ofConnection: pair.handle) == .unencrypted)
        try Self.start(pair, key: Self.key)
        try pair.peripheral.send(LELongTermKeyRequestReply(connectionHandle: pair.handle, longTermKey: Self.key).packet)
        #expect(try Self.events(pair.peripheral) == [Self.keyReplyComplete(LELongTermKeyRequestReply.self, .success, pair.handle),
                                                    Self.encrypted(pair.handle)])
        #expect(try Self.events(pair.central) == [Self.encrypted(pair.handle)])
        #expect(pair.link.encryption(ofConnection: pair.handle) == .encrypted(longTermKey: Self.key))
        for side in [pair.central, pair.peripheral] {
            #expect(try Self.keySize(side, pair.handle) == .init(status: .success, connectionHandle: pair.handle, keySize: 16))
        }
        // Data still crosses, both ways.
        try pair.central.send(Self.acl(pair.handle, 1))
        #expect(try pair.peripheral.receive(timeout: .seconds(1)).map(\.type) == [.aclData])
        try pair.peripheral.send(Self.acl(pair.handle, 2))
        #expect(try pair.central.receive(timeout: .seconds(1)).map(\.type).contains(.aclData))
    }

    @Test("the LE Long Term Key Request carries the central's Rand and EDIV",
          arguments: [(UInt64(0), UInt16(0)), (0x0123_4567_89AB_CDEF, 0xBEEF), (UInt64.max, UInt16.max)])
    func theRequestCarriesRandAndEDIV(_ randomNumber: UInt64, _ encryptedDiversifier: UInt16) throws {
        let pair = try Pair()
        defer { pair.close() }
        try Self.start(pair, key: Self.key, randomNumber: randomNumber, encryptedDiversifier: encryptedDiversifier)
        guard case let .awaitingKey(request, previousKey) = pair.link.encryption(ofConnection: pair.handle) else {
            Issue.record("the link is not waiting for the peripheral's key"); return
        }
        #expect(request == LEEnableEncryption(connectionHandle: pair.handle, randomNumber: randomNumber,
                                              encryptedDiversifier: encryptedDiversifier, longTermKey: Self.key))
        #expect(previousKey == nil)
    }

    @Test func enablingAgainOnAnEncryptedLinkRefreshesTheKey() throws {
        let pair = try Pair()
        defer { pair.close() }
        try Self.encrypt(pair, key: Self.key)

        try Self.start(pair, key: Self.otherKey, randomNumber: 7, encryptedDiversifier: 9)
        guard case let .awaitingKey(_, previousKey) = pair.link.encryption(ofConnection: pair.handle) else {
            Issue.record("the link is not waiting for the peripheral's key"); return
        }
        #expect(previousKey == Self.key)
        // Encryption is paused until the new key is in place (Vol 6 Part B §5.1.3.2).
        #expect(try Self.keySize(pair.central, pair.handle)?.status == .insufficientSecurity)
        try pair.peripheral.send(LELongTermKeyRequestReply(connectionHandle: pair.handle, longTermKey: Self.otherKey).packet)
        let refreshed = HCIEvent.encryptionKeyRefreshComplete(.init(connectionHandle: pair.handle))
        #expect(try Self.events(pair.peripheral) == [Self.keyReplyComplete(LELongTermKeyRequestReply.self, .success, pair.handle), refreshed])
        #expect(try Self.events(pair.central) == [refreshed])
        #expect(pair.link.encryption(ofConnection: pair.handle) == .encrypted(longTermKey: Self.otherKey))
    }

    @Test func differentKeysEndTheLinkWithAMICFailure() throws {
        let pair = try Pair()
        defer { pair.close() }
        try Self.start(pair, key: Self.key)
        try pair.peripheral.send(LELongTermKeyRequestReply(connectionHandle: pair.handle, longTermKey: Self.otherKey).packet)
        let dropped = HCIEvent.disconnectionComplete(.init(connectionHandle: pair.handle, reason: .connectionTerminatedDueToMICFailure))
        #expect(try Self.events(pair.peripheral) == [Self.keyReplyComplete(LELongTermKeyRequestReply.self, .success, pair.handle), dropped])
        #expect(try Self.events(pair.central) == [dropped])
        #expect(pair.link.connectionCount == 0)
        #expect(pair.link.encryption(ofConnection: pair.handle) == nil)

        // No more ACL, either way.
        let unknownBefore = pair.link.statistics.aclUnknownHandle
        try pair.central.send(Self.acl(pair.handle, 1))
        try pair.peripheral.send(Self.acl(pair.handle, 2))
        #expect(try Self.silent(pair.peripheral) && Self.silent(pair.central))
        #expect(pair.link.statistics.aclUnknownHandle == unknownBefore + 2)
    }

    @Test func aKeyRefreshWithADifferentKeyEndsTheLinkToo() throws {
        let pair = try Pair()
        defer { pair.close() }
        try Self.encrypt(pair, key: Self.key)
        try Self.start(pair, key: Self.otherKey)
        try pair.peripheral.send(LELongTermKeyRequestReply(connectionHandle: pair.handle, longTermKey: Self.key).packet)
        let dropped = HCIEvent.disconnectionComplete(.init(connectionHandle: pair.handle, reason: .connectionTerminatedDueToMICFailure))
        #expect(try Self.events(pair.central) == [dropped])
        #expect(pair.link.connectionCount == 0)
    }

    @Test func aNegativeReplyTellsTheCentralAloneAndKeepsTheLinkUnencrypted() throws {
        let pair = try Pair()
        defer { pair.close() }
        try Self.start(pair, key: Self.key)
        try pair.peripheral.send(LELongTermKeyRequestNegativeReply(connectionHandle: pair.handle).packet)
        #expect(try Self.events(pair.peripheral) == [Self.keyReplyComplete(LELongTermKeyRequestNegativeReply.self, .success, pair.handle)])
        #expect(try Self.events(pair.central) == [.encryptionChange(.init(status: .pinOrKeyMissing, connectionHandle: pair.handle,
                                                                          encryptionEnabled: 0x00))])
        #expect(pair.link.connectionCount == 1)
        #expect(pair.link.encryption(ofConnection: pair.handle) == .unencrypted)
        #expect(try Self.keySize(pair.peripheral, pair.handle) == .init(status: .insufficientSecurity, connectionHandle: pair.handle, keySize: 0))
        try pair.central.send(Self.acl(pair.handle, 1))
        #expect(try pair.peripheral.receive(timeout: .seconds(1)).map(\.type) == [.aclData])
    }

    @Test func aNegativeReplyToARefreshLeavesTheLinkUpAndUnencrypted() throws {
        let pair = try Pair()
        defer { pair.close() }
        try Self.encrypt(pair, key: Self.key)
        try Self.start(pair, key: Self.otherKey)
        try pair.peripheral.send(LELongTermKeyRequestNegativeReply(connectionHandle: pair.handle).packet)
        #expect(try Self.events(pair.central) == [.encryptionChange(.init(status: .pinOrKeyMissing, connectionHandle: pair.handle,
                                                                          encryptionEnabled: 0x00))])
        #expect(pair.link.connectionCount == 1)
        #expect(pair.link.encryption(ofConnection: pair.handle) == .unencrypted)
    }

    @Test func aclKeepsCrossingWhileTheStartWaitsForTheKey() throws {
        let pair = try Pair()
        defer { pair.close() }
        try Self.start(pair, key: Self.key)
        try pair.central.send(Self.acl(pair.handle, 1))
        #expect(try pair.peripheral.receive(timeout: .seconds(1)).map(\.type) == [.aclData])
        try pair.peripheral.send(Self.acl(pair.handle, 2))
        #expect(try pair.central.receive(timeout: .seconds(1)).map(\.type).contains(.aclData))
    }

    @Test func onlyTheCentralMayStartEncryptionAndOnlyOnce() throws {
        let pair = try Pair()
        defer { pair.close() }
        let fromPeripheral = try LoopbackHCITests.exchange(pair.peripheral, LEEnableEncryption(connectionHandle: pair.handle, longTermKey: Self.key).packet)
        #expect(fromPeripheral == Self.commandStatus(.commandDisallowed, LEEnableEncryption.opcode))
        #expect(try Self.silent(pair.central))
        #expect(pair.link.encryption(ofConnection: pair.handle) == .unencrypted)

        let unknown = try LoopbackHCITests.exchange(pair.central, LEEnableEncryption(connectionHandle: pair.handle + 1, longTermKey: Self.key).packet)
        #expect(unknown == Self.commandStatus(.unknownConnectionIdentifier, LEEnableEncryption.opcode))
        #expect(try Self.silent(pair.peripheral))

        // A second start while the first waits for the key.
        try Self.start(pair, key: Self.key)
        let again = try LoopbackHCITests.exchange(pair.central, LEEnableEncryption(connectionHandle: pair.handle, longTermKey: Self.otherKey).packet)
        #expect(again == Self.commandStatus(.commandDisallowed, LEEnableEncryption.opcode))
        #expect(try Self.silent(pair.peripheral))

        let truncated = HCICommandPacket(opcode: LEEnableEncryption.opcode, parameters: [0x01, 0x00])
        #expect(try LoopbackHCITests.exchange(pair.central, truncated) == Self.commandStatus(.invalidCommandParameters, LEEnableEncryption.opcode))
    }

    @Test func keyRepliesNobodyAskedForAreRefused() throws {
        let pair = try Pair()
        defer { pair.close() }
        // No request is pending.
        let early = try LoopbackHCITests.exchange(pair.peripheral, LELongTermKeyRequestReply(connectionHandle: pair.handle, longTermKey: Self.key).packet)
        #expect(early == Self.keyReplyComplete(LELongTermKeyRequestReply.self, .commandDisallowed, pair.handle))
        let unknown = try LoopbackHCITests.exchange(pair.peripheral, LELongTermKeyRequestNegativeReply(connectionHandle: 0x0EFF).packet)
        #expect(unknown == Self.keyReplyComplete(LELongTermKeyRequestNegativeReply.self, .unknownConnectionIdentifier, 0x0EFF))

        // The central's host was not asked, though a request is pending.
        try Self.start(pair, key: Self.key)
        let fromCentral = try LoopbackHCITests.exchange(pair.central, LELongTermKeyRequestReply(connectionHandle: pair.handle, longTermKey: Self.key).packet)
        #expect(fromCentral == Self.keyReplyComplete(LELongTermKeyRequestReply.self, .commandDisallowed, pair.handle))
        #expect(try Self.silent(pair.peripheral))
        #expect(pair.link.encryption(ofConnection: pair.handle) != .unencrypted)
        #expect(pair.link.encryption(ofConnection: pair.handle)?.isEncrypted == false)
    }

    @Test func anArmedFaultFailsTheNextEncryptionOnly() throws {
        let pair = try Pair()
        defer { pair.close() }
        pair.peripheralController.failNextEncryption()
        try Self.start(pair, key: Self.key)
        // A negative reply does not spend it.
        try pair.peripheral.send(LELongTermKeyRequestNegativeReply(connectionHandle: pair.handle).packet)
        _ = try Self.events(pair.peripheral)
        _ = try Self.events(pair.central)
        try Self.start(pair, key: Self.key)
        try pair.peripheral.send(LELongTermKeyRequestReply(connectionHandle: pair.handle, longTermKey: Self.key).packet)
        let dropped = HCIEvent.disconnectionComplete(.init(connectionHandle: pair.handle, reason: .connectionTerminatedDueToMICFailure))
        #expect(try Self.events(pair.central) == [dropped])
        #expect(pair.link.connectionCount == 0)
        _ = try Self.events(pair.peripheral)

        // Spent: the next link encrypts.
        let handle = try LoopbackHCITests.connect(pair.peripheral, pair.central)
        try pair.central.send(LEEnableEncryption(connectionHandle: handle, longTermKey: Self.key).packet)
        _ = try Self.events(pair.central)
        _ = try Self.events(pair.peripheral)
        try pair.peripheral.send(LELongTermKeyRequestReply(connectionHandle: handle, longTermKey: Self.key).packet)
        #expect(try Self.events(pair.central) == [Self.encrypted(handle)])
    }

    @Test func answersLERandAndListsTheEncryptionCommands() throws {
        let link = LoopbackLink()
        let transport = try link.addController().open()
        defer { transport.close() }
        var numbers: [UInt64] = []
        for _ in 0..<2 {
            guard case let .commandComplete(c) = try LoopbackHCITests.exchange(transport, LERand().packet) else {
                Issue.record("no Command Complete"); return
            }
            let r = try c.returnParameters(for: LERand.self)
            #expect(r.status == .success)
            numbers.append(r.randomNumber)
        }
        #expect(numbers[0] != numbers[1])

        guard case let .commandComplete(commands) = try LoopbackHCITests.exchange(transport, ReadLocalSupportedCommands().packet) else {
            Issue.record("no Command Complete"); return
        }
        let bitmap = try commands.returnParameters(for: ReadLocalSupportedCommands.self).supportedCommands
        for c: HCISupportedCommands.Command in [.leRand, .leEnableEncryption, .leLongTermKeyRequestReply,
                                                .leLongTermKeyRequestNegativeReply, .readEncryptionKeySize] {
            #expect(bitmap.supports(c), "\(c)")
        }
        // LE Encrypt is not implemented (a host must do SMP's crypto itself): not listed, Unknown HCI Command.
        #expect(!bitmap.supports(.leEncrypt))
        let encrypt = try LoopbackHCITests.exchange(transport, LEEncrypt(key: Self.key, plaintextData: 0).packet)
        #expect(LoopbackHCITests.completeStatus(encrypt) == .unknownCommand)

        guard case let .commandComplete(features) = try LoopbackHCITests.exchange(transport, LEReadLocalSupportedFeatures().packet) else {
            Issue.record("no Command Complete"); return
        }
        #expect(try features.returnParameters(for: LEReadLocalSupportedFeatures.self).leFeatures.contains(.leEncryption))
        #expect(try Self.keySize(transport, 0x0001) == .init(status: .unknownConnectionIdentifier, connectionHandle: 0x0001, keySize: 0))
    }
}
