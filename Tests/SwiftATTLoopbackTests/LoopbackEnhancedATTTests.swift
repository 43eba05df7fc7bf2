import Foundation
import SwiftATTAdvertising
import SwiftATTCore
import SwiftATTGATT
import SwiftATTHCI
import SwiftATTHost
import SwiftATTL2CAP
import SwiftATTLoopback
import SwiftATTPDU
import Testing
import TestSupport

/// Enhanced ATT between two swift-att hosts on the loopback link: the peripheral serves
/// a database that announces it, the central opens bearers on PSM 0x0027 (pairing first,
/// as the bearers ask for an encrypted link), and procedures asked for at once run at
/// once over them — checked in the central's own btsnoop capture, where the requests
/// leave on several channels before their answers come back.
@Suite struct LoopbackEnhancedATTTests {
    static let service = BluetoothUUID(0xEA70)
    static let valueCount = 24

    static func value(_ index: Int) -> [UInt8] {
        (0..<(20 + index * 17)).map { UInt8(truncatingIfNeeded: $0 &+ index &* 7) }
    }

    static func uuid(_ index: Int) -> BluetoothUUID { BluetoothUUID(UInt16(0xEA80 + index)) }

    struct Setup {
        let link: LoopbackLink
        let peripheral: Peripheral
        let central: Central
        let peer: Peer
        /// Three values to subscribe to (0xEA7D–0xEA7F).
        let notified: [GATTCharacteristic]
        let capture: String

        static func start(serverFeatures: GATTServerFeatures = [.enhancedATT], extraServices: [GATTService] = []) async throws -> Setup {
            let link = LoopbackLink()
            let peripheralController = link.addController()
            let centralController = link.addController()
            var characteristics = (0..<LoopbackEnhancedATTTests.valueCount).map { index in
                GATTCharacteristic(uuid: LoopbackEnhancedATTTests.uuid(index), properties: [.read, .write],
                                   value: .bytes(LoopbackEnhancedATTTests.value(index), length: .variable(maximum: 512)))
            }
            let notified = (0xEA7D...0xEA7F).map { GATTCharacteristic(uuid: BluetoothUUID(UInt16($0)), properties: [.notify, .indicate]) }
            characteristics += notified
            let database = try GATTDatabase(services: [GATTService(uuid: LoopbackEnhancedATTTests.service, characteristics: characteristics)] + extraServices,
                                            genericAccess: GATTGenericAccess(deviceName: "eatt", appearance: 0),
                                            serverFeatures: serverFeatures)
            let peripheral = try await Peripheral.start(transport: peripheralController.specification, database: database)
            try await peripheral.controller.configureSecurity(SecurityConfiguration(), delegate: AutomaticPairingDelegate())
            var builder = AdvertisingDataBuilder()
            try builder.append(.flags(.leGeneralDiscoverableLEOnly))
            try builder.append(.serviceUUIDs(ServiceUUIDList([LoopbackEnhancedATTTests.service])))
            try await peripheral.startAdvertising(data: builder.advertisingData.encoded())
            let capture = FileManager.default.temporaryDirectory.appendingPathComponent("eatt-\(UInt64.random(in: 0...UInt64.max)).btsnoop").path
            let central = try await Central.start(transport: centralController.specification, capturePath: capture)
            try await central.controller.configureSecurity(SecurityConfiguration(), delegate: AutomaticPairingDelegate())
            let device = try #require(try await first(central.scan(services: [LoopbackEnhancedATTTests.service])) { $0 })
            let peer = try await central.connect(device.address)
            return Setup(link: link, peripheral: peripheral, central: central, peer: peer, notified: notified, capture: capture)
        }

        func stop() async {
            await central.close()
            await peripheral.close()
            try? FileManager.default.removeItem(atPath: capture)
        }

        /// The opcodes of the ATT PDUs the central received, in order.
        func receivedOpcodes() throws -> [ATTOpcode] {
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: capture)))
            return try BTSnoop.records(in: bytes).compactMap { record in
                guard record.packetType == .aclData, record.direction == .received else { return nil }
                let p = Array(record.packet)
                guard p.count >= 9 else { return nil }
                let cid = UInt16(p[6]) | UInt16(p[7]) << 8
                let opcodeIndex = cid == 0x0004 ? 8 : 10
                guard cid == 0x0004 || (0x0040...0x007F).contains(cid), p.count > opcodeIndex else { return nil }
                return ATTOpcode(p[opcodeIndex])
            }
        }

        /// The ATT requests the central sent, in order, with the CID each went on, and
        /// the number of requests outstanding at once at most (sent and not answered,
        /// on any bearer). Read once the central has stopped and its capture is whole.
        func sentRequests() throws -> (cids: [UInt16], opcodes: [ATTOpcode], mostOutstanding: Int) {
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: capture)))
            var cids: [UInt16] = []
            var opcodes: [ATTOpcode] = []
            var outstanding = 0
            var most = 0
            for record in try BTSnoop.records(in: bytes) where record.packetType == .aclData {
                let p = Array(record.packet)
                guard p.count >= 9 else { continue }
                let cid = UInt16(p[6]) | UInt16(p[7]) << 8
                // A K-frame's first two octets are the SDU length; the fixed channel has none.
                let opcodeIndex = cid == 0x0004 ? 8 : 10
                guard cid == 0x0004 || (0x0040...0x007F).contains(cid), p.count > opcodeIndex else { continue }
                let opcode = ATTOpcode(p[opcodeIndex])
                if record.direction == .sent, opcode.kind == .request {
                    cids.append(cid)
                    opcodes.append(opcode)
                    outstanding += 1
                    most = max(most, outstanding)
                } else if record.direction == .received, opcode.kind == .response || opcode == .errorResponse {
                    outstanding -= 1
                }
            }
            return (cids, opcodes, most)
        }
    }

    @Test func bearersOpenOnAnEncryptedLinkAndProceduresRunOnThemAtOnce() async throws {
        let setup = try await Setup.start()
        #expect(await setup.peer.securityLevel == .none)
        #expect(try await setup.peer.openEnhancedBearers(5) == 5)
        // The bearers asked for encryption: the central paired to get it.
        #expect(await setup.peer.securityLevel.isEncrypted)
        #expect(await setup.peer.enhancedBearerMTUs == Array(repeating: 517, count: 5))
        let database = try await setup.peer.discoverDatabase()
        let characteristics = (0..<Self.valueCount).map { database.characteristics(uuid: Self.uuid($0)).first }
        let found = characteristics.compactMap { $0 }
        try #require(found.count == Self.valueCount)
        // Every value read at once, three times over, from as many tasks.
        let values = try await withThrowingTaskGroup(of: (Int, [UInt8]).self) { group in
            for round in 0..<3 {
                for (index, characteristic) in found.enumerated() {
                    group.addTask { (index + round * 1000, try await setup.peer.read(characteristic)) }
                }
            }
            var values: [Int: [UInt8]] = [:]
            for try await (key, value) in group { values[key] = value }
            return values
        }
        #expect(values.count == 3 * Self.valueCount)
        for (key, value) in values where value != Self.value(key % 1000) {
            Issue.record("read \(key % 1000) in round \(key / 1000) got \(value.count) octets, not its value")
        }
        await setup.central.close()
        let (cids, _, most) = try setup.sentRequests()
        let enhanced = Set(cids.filter { $0 != 0x0004 })
        #expect(enhanced.count == 5, "requests went out on \(enhanced.count) Enhanced bearers")
        #expect(most >= 4, "at most \(most) requests were outstanding at once")
        await setup.stop()
    }

    /// Services for the discovery test: eight of four characteristics, each with a User
    /// Description, every other one notifying (so with a CCCD too), and a secondary
    /// service included by two of them.
    static func discoveryServices() -> [GATTService] {
        let secondary = GATTService(uuid: BluetoothUUID(0xEB00), isPrimary: false, characteristics: [
            GATTCharacteristic(uuid: BluetoothUUID(0xEB01), properties: [.read], value: .fixed([1]),
                               descriptors: [.userDescription("inside")])])
        func characteristic(_ s: Int, _ c: Int) -> GATTCharacteristic {
            let properties: GATTCharacteristic.Properties = c % 2 == 0 ? [.read, .notify] : [.read]
            return GATTCharacteristic(uuid: BluetoothUUID(UInt16(0xEC00 + s * 16 + c + 1)), properties: properties,
                                      value: .fixed([UInt8(c)]), descriptors: [.userDescription("value \(s).\(c)")])
        }
        let primaries: [GATTService] = (0..<8).map { (s: Int) -> GATTService in
            let included: [GATTService] = s % 4 == 1 ? [secondary] : []
            return GATTService(uuid: BluetoothUUID(UInt16(0xEC00 + s * 16)), includedServices: included,
                               characteristics: (0..<4).map { characteristic(s, $0) })
        }
        return primaries + [secondary]
    }

    /// With bearers open, discovery asks for each step's procedures at once, and finds
    /// exactly what the one-bearer procedure finds on the same server.
    @Test func discoveryRunsInParallelOverTheBearersAndFindsTheSameDatabase() async throws {
        let setup = try await Setup.start(extraServices: Self.discoveryServices())
        #expect(try await setup.peer.openEnhancedBearers(5) == 5)
        let parallel = try await setup.peer.discoverDatabase()
        let sequential = try await setup.peer.run { mtu in GATTClient.DiscoverDatabase(mtu: mtu) }
        #expect(parallel.services == sequential.services)
        // The secondary service was found through its includes, once, after the primaries.
        #expect(parallel.services.filter { !$0.service.isPrimary }.map(\.service.uuid) == [BluetoothUUID(0xEB00)])
        #expect(parallel.services.filter { !$0.includedServices.isEmpty }.count == 2)
        let described = parallel.services.flatMap(\.characteristics).filter { record in
            record.descriptors.contains { $0.uuid == GATTAttributeType.characteristicUserDescription }
        }
        #expect(described.count == 8 * 4 + 1)
        await setup.central.close()
        // In the capture: discovery's requests spread over the Enhanced bearers, several
        // outstanding at once (the one-bearer discovery after it has one at a time).
        let (cids, opcodes, most) = try setup.sentRequests()
        let discovery: Set<ATTOpcode> = [.readByGroupTypeRequest, .readByTypeRequest, .findInformationRequest]
        let enhanced = Set(zip(cids, opcodes).filter { discovery.contains($0.1) && $0.0 != 0x0004 }.map(\.0))
        #expect(enhanced.count == 5, "discovery went out on \(enhanced.count) Enhanced bearers")
        #expect(most >= 4, "at most \(most) requests were outstanding at once")
        await setup.stop()
    }

    /// A server whose Enhanced bearers are smaller than the unenhanced one (MTU 64
    /// against 517): writes that fit the unenhanced bearer but not those go as Write
    /// Long wherever they land, and every value arrives whole.
    @Test func writesFitTheSmallestBearer() async throws {
        let setup = try await Setup.start()
        try await setup.peripheral.controller.acceptEnhancedATT(
            parameters: L2CAPChannelParameters(mtu: 64, mps: 64, credits: 16, security: .encrypted))
        #expect(await setup.peer.mtu == 517)
        #expect(try await setup.peer.openEnhancedBearers(5) == 5)
        #expect(await setup.peer.enhancedBearerMTUs == Array(repeating: 64, count: 5))
        let database = try await setup.peer.discoverDatabase()
        let targets = try (0..<6).map { try #require(database.characteristics(uuid: Self.uuid($0)).first) }
        let values = (0..<6).map { index in (0..<(61 + index * 20)).map { UInt8(truncatingIfNeeded: $0 * 5 + index) } }
        // All at once, each child capturing its characteristic and its value (the shape
        // that crashed Swift 6.3's debug builds while BluetoothUUID held a UInt128).
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<6 {
                let target = targets[index]
                let value = values[index]
                group.addTask { try await setup.peer.write(value, to: target) }
            }
            try await group.waitForAll()
        }
        for (index, target) in targets.enumerated() {
            let read = try await setup.peer.read(target)
            #expect(read == values[index], "value \(index): \(read.count) octets read, \(values[index].count) written")
        }
        await setup.stop()
    }

    @Test func aPeerWithoutEnhancedATTRefusesAndTheUnenhancedBearerGoesOn() async throws {
        let setup = try await Setup.start(serverFeatures: [])
        await #expect(throws: L2CAPChannelError.refusedEnhanced(.spsmNotSupported)) {
            try await setup.peer.openEnhancedBearers(2)
        }
        #expect(await setup.peer.enhancedBearerMTUs.isEmpty)
        let database = try await setup.peer.discoverDatabase()
        let characteristic = try #require(database.characteristics(uuid: Self.uuid(3)).first)
        #expect(try await setup.peer.read(characteristic) == Self.value(3))
        // No Server Supported Features characteristic when the server announces nothing.
        #expect(database.characteristics(uuid: GATTAttributeType.serverSupportedFeatures).isEmpty)
        await setup.stop()
    }

    @Test func theServerAnnouncesEnhancedATTAndExchangeMTUStaysOnTheUnenhancedBearer() async throws {
        let setup = try await Setup.start()
        try await setup.peer.openEnhancedBearers(3)
        let features = try await setup.peer.read(using: GATTAttributeType.serverSupportedFeatures)
        #expect(features.map(\.value) == [[GATTServerFeatures.enhancedATT.rawValue]])
        // Exchange MTU waits for the unenhanced bearer and sets its ATT_MTU only.
        #expect(try await setup.peer.exchangeMTU() == 517)
        #expect(await setup.peer.enhancedBearerMTUs == [517, 517, 517])
        await setup.stop()
    }

    @Test func preparedWritesAtOnceTakeTurnsAndBothLand() async throws {
        let setup = try await Setup.start()
        try await setup.peer.openEnhancedBearers(5)
        let database = try await setup.peer.discoverDatabase()
        let a = try #require(database.characteristics(uuid: Self.uuid(1)).first)
        let b = try #require(database.characteristics(uuid: Self.uuid(2)).first)
        let first = (0..<400).map { UInt8(truncatingIfNeeded: $0) }
        let second = (0..<400).map { UInt8(truncatingIfNeeded: $0 * 3) }
        func halves(_ value: [UInt8], to handle: UInt16) -> [GATTClient.ReliableWrites.Write] {
            [.init(handle: handle, value: Array(value[..<200])), .init(handle: handle, value: Array(value[200...]), offset: 200)]
        }
        // Both queue prepared writes in the server's one prepare queue for this client:
        // run at once over two bearers, the second's writes would land in the first's
        // Execute Write.
        async let one: Void = setup.peer.reliableWrite(halves(first, to: a.valueHandle))
        async let two: Void = setup.peer.reliableWrite(halves(second, to: b.valueHandle))
        _ = try await (one, two)
        #expect(try await setup.peer.read(a) == first)
        #expect(try await setup.peer.read(b) == second)
        await setup.central.close()
        // In the capture: each procedure's Prepare Writes and Execute Write on one
        // bearer, and no other procedure's in between.
        let (cids, opcodes, _) = try setup.sentRequests()
        let writes = zip(cids, opcodes).filter { $0.1 == .prepareWriteRequest || $0.1 == .executeWriteRequest }
        #expect(writes.map(\.1) == [.prepareWriteRequest, .prepareWriteRequest, .executeWriteRequest,
                                     .prepareWriteRequest, .prepareWriteRequest, .executeWriteRequest])
        #expect(Set(writes.prefix(3).map(\.0)).count == 1 && Set(writes.suffix(3).map(\.0)).count == 1)
        await setup.stop()
    }

    @Test func notificationsAndIndicationsArriveWithBearersOpen() async throws {
        let setup = try await Setup.start()
        try await setup.peer.openEnhancedBearers(2)
        let database = try await setup.peer.discoverDatabase()
        let characteristic = try #require(database.characteristics(uuid: BluetoothUUID(0xEA7F)).first)
        let stream = try await setup.peer.notifications(of: characteristic)
        try await eventually("the peripheral sees the subscription") {
            setup.peripheral.updateValue([1, 2, 3], for: setup.notified[2])
        }
        let value = try #require(try await first(stream) { $0.value })
        #expect(value == [1, 2, 3])
        await setup.stop()
    }

    @Test func theLinkGoingDownFailsWhatRunsOnEveryBearer() async throws {
        let setup = try await Setup.start()
        try await setup.peer.openEnhancedBearers(5)
        let database = try await setup.peer.discoverDatabase()
        let characteristic = try #require(database.characteristics(uuid: Self.uuid(0)).first)
        try await setup.peer.disconnect()
        await #expect(throws: GATTClientError.self) { try await setup.peer.read(characteristic) }
        #expect(await setup.peer.enhancedBearerMTUs.isEmpty)
        await setup.stop()
    }

    /// Several values at once: in one Multiple Handle Value Notification to a client
    /// that announced it takes them, one notification each to one that did not.
    @Test(arguments: [true, false])
    func valuesUpdatedTogetherArriveInOneNotificationWhenTheClientTakesThem(announced: Bool) async throws {
        let setup = try await Setup.start()
        try await setup.peer.openEnhancedBearers(1)
        if announced {
            let written = try await setup.peer.announceClientFeatures([.enhancedATT, .multipleHandleValueNotifications])
            #expect(written == [0x06])
        }
        let database = try await setup.peer.discoverDatabase()
        let stream = setup.peer.values()
        for uuid in 0xEA7D...0xEA7F {
            let characteristic = try #require(database.characteristics(uuid: BluetoothUUID(UInt16(uuid))).first)
            try await setup.peer.setNotify(.notification, for: characteristic)
        }
        let updates = setup.notified.enumerated().map { (characteristic: $0.element, value: Array(repeating: UInt8($0.offset + 1), count: 10 + $0.offset)) }
        await setup.peripheral.updateValues(updates)
        let received = try #require(try await withTimeout(.seconds(30)) {
            var values: [[UInt8]] = []
            for try await notification in stream {
                values.append(notification.value)
                if values.count == 3 { break }
            }
            return values
        })
        #expect(received == updates.map(\.value))
        await setup.central.close()
        let opcodes = try setup.receivedOpcodes()
        let pushed = opcodes.filter { $0 == .multipleHandleValueNotification || $0 == .handleValueNotification }
        #expect(pushed == (announced ? [.multipleHandleValueNotification] : Array(repeating: .handleValueNotification, count: 3)))
        await setup.stop()
    }

    /// Opening bearers sets the Enhanced ATT bit of the server's Client Supported
    /// Features, keeping what the client set before (Part G §7.2); opening more later
    /// keeps the value.
    @Test func openingBearersSetsTheEnhancedATTBitKeepingTheOthers() async throws {
        let setup = try await Setup.start()
        #expect(try await setup.peer.announceClientFeatures(.robustCaching) == [0x01])
        #expect(try await setup.peer.openEnhancedBearers(2) == 2)
        #expect(try await setup.peer.read(using: GATTAttributeType.clientSupportedFeatures).map(\.value) == [[0x03]])
        #expect(try await setup.peer.openEnhancedBearers(1) == 3)
        #expect(try await setup.peer.read(using: GATTAttributeType.clientSupportedFeatures).map(\.value) == [[0x03]])
        await setup.stop()
    }

    /// Robust Caching across bearers, end to end (Part G §2.5.2.1): after the database
    /// changes, a Robust Caching client that confirmed Service Changed is change-aware
    /// again while it uses one bearer; with an Enhanced bearer open (counted by the
    /// server as it opens, before any request on it) its next read at a handle is still
    /// answered Database Out Of Sync.
    @Test(arguments: [0, 1])
    func aConfirmedServiceChangedTellsOnlyAOneBearerClient(enhancedBearers: Int) async throws {
        let setup = try await Setup.start()
        if enhancedBearers > 0 { #expect(try await setup.peer.openEnhancedBearers(enhancedBearers) == enhancedBearers) }
        try await setup.peer.announceClientFeatures(.robustCaching)
        let database = try await setup.peer.discoverDatabase()
        let characteristic = try #require(database.characteristics(uuid: Self.uuid(0)).first)
        let events = setup.peripheral.events()
        let changes = setup.peer.serviceChanges()
        await setup.peripheral.replaceDatabase(setup.peripheral.database)
        _ = try await first("the confirmation of Service Changed", in: events) { event -> Bool? in
            if case .indicationConfirmed = event { return true }
            return nil
        }
        _ = try await first("the central's rediscovery", in: changes) { $0 }
        if enhancedBearers == 0 {
            #expect(try await setup.peer.read(characteristic) == Self.value(0))
        } else {
            await #expect(throws: GATTClientError.attributeError(.databaseOutOfSync, handle: characteristic.valueHandle, request: .readRequest)) {
                try await setup.peer.read(characteristic)
            }
            // Reading the Database Hash, then any request, makes it aware.
            _ = try await setup.peer.read(using: GATTAttributeType.databaseHash)
            #expect(try await setup.peer.read(characteristic) == Self.value(0))
        }
        await setup.stop()
    }

    /// Many values read in one call: Read Multiple Variable requests, whatever cut
    /// completed, every value whole and in order.
    @Test func manyValuesReadTogetherComeBackWholeInFewRequests() async throws {
        let setup = try await Setup.start()
        try await setup.peer.openEnhancedBearers(2)
        let database = try await setup.peer.discoverDatabase()
        let characteristics = try (0..<Self.valueCount).map { try #require(database.characteristics(uuid: Self.uuid($0)).first) }
        let values = try await setup.peer.read(characteristics)
        #expect(values.count == Self.valueCount)
        for (index, value) in values.enumerated() where value != Self.value(index) {
            Issue.record("value \(index): \(value.count) octets, not its own")
        }
        await setup.central.close()
        let (_, opcodes, _) = try setup.sentRequests()
        let multiple = opcodes.filter { $0 == .readMultipleVariableRequest }.count
        let single = opcodes.filter { $0 == .readRequest }.count
        #expect(multiple >= 1 && single == 0, "\(multiple) Read Multiple Variable, \(single) Read Requests")
        await setup.stop()
    }
}
