import SwiftATTPDU
import SwiftATTCore
import SwiftATTGATT
import Testing

/// Writing against the in-repo GATT server: Write, Write Without Response, Signed Write,
/// Write Long, Reliable Writes (echoes verified, cancelled on a mismatch), cancellation,
/// descriptors and Client Characteristic Configuration. Core 5.4 Vol 3 Part G §4.9,
/// §4.12.3–§4.12.4.
@Suite("GATT client: writes")
struct GATTClientWriteTests {
    typealias Fixture = GATTClientFixture

    static let newValue: [UInt8] = (0..<400).map { UInt8(truncatingIfNeeded: 0xFF - $0) }

    @Test("Write Characteristic Value: a Write Request, and the application's error")
    func write() throws {
        let fixture = try Fixture()
        var link = GATTClientTestLink(fixture.database)
        let handle = fixture.valueHandle(fixture.controlPoint)
        #expect(throws: Never.self) { try link.run(GATTClient.WriteCharacteristicValue(handle: handle, value: [0x01], mtu: 23)).get() }
        #expect(fixture.recorder.recorded.map(\.value) == [[0x01]])
        #expect(fixture.recorder.recorded.first?.kind == .request)
        let refused = link.run(GATTClient.WriteCharacteristicValue(handle: handle, value: [0x02], mtu: 23)).gattError
        #expect(refused == .attributeError(ATTErrorCode(0x80), handle: handle, request: .writeRequest))
        #expect(refused?.description.contains("application") == true)
        #expect(link.run(GATTClient.WriteCharacteristicValue(handle: fixture.valueHandle(fixture.location), value: [0x02], mtu: 23)).gattError
            == .attributeError(.writeNotPermitted, handle: fixture.valueHandle(fixture.location), request: .writeRequest))
    }

    @Test("a Write Request longer than ATT_MTU−3 is refused before it is sent")
    func writeTooLong() {
        var write = GATTClient.WriteCharacteristicValue(handle: 3, value: Array(repeating: 0, count: 21), mtu: 23)
        #expect(write.start().failure == .valueTooLong(length: 21, maximum: 20))
        var fits = GATTClient.WriteCharacteristicValue(handle: 3, value: Array(repeating: 0, count: 244), mtu: 247)
        #expect(fits.start().request == .writeRequest(WriteRequest(handle: 3, value: Array(repeating: 0, count: 244)[...])))
    }

    @Test("Write Without Response: a Write Command the host sends; too long is refused")
    func writeWithoutResponse() throws {
        let fixture = try Fixture()
        var link = GATTClientTestLink(fixture.database)
        let handle = fixture.valueHandle(fixture.writeOnly)
        let command = try GATTClient.writeWithoutResponse(handle: handle, value: [0xAB, 0xCD], mtu: 23)
        #expect(command.encoded() == [0x52, UInt8(handle & 0xFF), UInt8(handle >> 8), 0xAB, 0xCD])
        try link.send(command)
        #expect(fixture.recorder.recorded.last?.value == [0xAB, 0xCD])
        #expect(fixture.recorder.recorded.last?.kind == .command)
        #expect(throws: GATTClientError.valueTooLong(length: 21, maximum: 20)) {
            try GATTClient.writeWithoutResponse(handle: handle, value: Array(repeating: 0, count: 21), mtu: 23)
        }
    }

    @Test("Signed Write Without Response: BlueZ's signed write to 0x0012 of 13 37, counter 1, and the value limit")
    func signedWrite() throws {
        // BlueZ unit/test-crypto.c (sign_att_5): the key in wire order is 505e42df…641b61.
        let key = UInt128(bigEndianBytes: Array(try Hex.decode("505e42df9691ec72d31fcdfbeb641b61").reversed()))!
        let pdu = try GATTClient.signedWriteWithoutResponse(handle: 0x0012, value: [0x13, 0x37], mtu: 23,
                                                             signatureKey: key, signCounter: 1)
        #expect(pdu.encoded() == (try Hex.decode("d2 1200 1337 01000000 f1871e933c900ff2")))
        #expect(throws: GATTClientError.valueTooLong(length: 9, maximum: 8)) {
            try GATTClient.signedWriteWithoutResponse(handle: 3, value: Array(repeating: 0, count: 9), mtu: 23,
                                                       signatureKey: key, signCounter: 2)
        }
    }

    @Test("A signed write reaches a characteristic that allows it, and only such a one")
    func signedWriteAtTheServer() throws {
        let written = GATTCharacteristic(uuid: BluetoothUUID(0xFE10), properties: [.authenticatedSignedWrites],
                                         value: .bytes([]))
        let plain = GATTCharacteristic(uuid: BluetoothUUID(0xFE11), properties: [.writeWithoutResponse], value: .bytes([]))
        let needsEncryption = GATTCharacteristic(uuid: BluetoothUUID(0xFE12), properties: [.authenticatedSignedWrites],
                                                 permissions: AttributePermissions(write: .encrypted), value: .bytes([]))
        let needsAuthentication = GATTCharacteristic(uuid: BluetoothUUID(0xFE13), properties: [.authenticatedSignedWrites],
                                                     permissions: AttributePermissions(write: .authenticated), value: .bytes([]))
        let database = try GATTDatabase(services: [GATTService(uuid: BluetoothUUID(0xFE00),
                                                               characteristics: [written, plain, needsEncryption, needsAuthentication])])
        let server = GATTServer(database: database)
        let id = GATTServer.ConnectionID(1)
        server.connect(id)
        func command(_ c: GATTCharacteristic, _ value: UInt8 = 0x5A) throws -> SignedWriteCommand {
            let handle = try #require(database.valueHandle(of: c))
            guard case let .signedWriteCommand(command) = try GATTClient.signedWriteWithoutResponse(
                handle: handle, value: [value], mtu: 23, signatureKey: 1, signCounter: 0) else { throw GATTClientError.cancelled }
            return command
        }
        #expect(server.signedWrite(try command(written), from: id, signerAuthenticated: false))
        #expect(server.value(of: written) == [0x5A])
        #expect(!server.signedWrite(try command(plain), from: id, signerAuthenticated: true))
        #expect(!server.signedWrite(try command(needsEncryption), from: id, signerAuthenticated: true))
        #expect(!server.signedWrite(try command(needsAuthentication), from: id, signerAuthenticated: false))
        #expect(server.signedWrite(try command(needsAuthentication), from: id, signerAuthenticated: true))
        // On an encrypted link the permission is judged as for any write.
        server.setSecurity(.encrypted(keySize: 16), for: id)
        #expect(server.signedWrite(try command(needsEncryption), from: id, signerAuthenticated: false))
        // An unverified Signed Write Command handed to `handle` writes nothing.
        #expect(server.handle(.signedWriteCommand(try command(written, 0x77)), from: id, mtu: 23) == nil)
        #expect(server.value(of: written) == [0x5A])
    }

    @Test("Write Long: Prepare Writes of ATT_MTU−5 octets, then Execute; the server's callback sees the value", arguments: [nil, 247])
    func writeLong(mtu: Int?) throws {
        let fixture = try Fixture()
        var link = GATTClientTestLink(fixture.database, mtu: mtu)
        let handle = fixture.valueHandle(fixture.long)
        var write = GATTClient.WriteLongCharacteristicValues(handle: handle, value: Self.newValue, mtu: link.mtu)
        #expect(throws: Never.self) { try link.run(&write).get() }
        let chunk = link.mtu - 5
        #expect(write.prepareWriteCount == (400 + chunk - 1) / chunk)
        #expect(link.count(.prepareWriteRequest) == write.prepareWriteCount)
        #expect(link.requests.last == .executeWriteRequest(ExecuteWriteRequest(flags: .writeAll)))
        #expect(fixture.recorder.recorded.map(\.value) == [Self.newValue])
        #expect(fixture.recorder.recorded.first?.kind == .queued)
        #expect(link.run(GATTClient.ReadLongCharacteristicValues(handle: handle, mtu: link.mtu)).gattOutput == Self.newValue)
    }

    @Test("Write Long at an offset keeps what is before it")
    func writeLongAtOffset() throws {
        let fixture = try Fixture()
        var link = GATTClientTestLink(fixture.database)
        let handle = fixture.valueHandle(fixture.long)
        #expect(throws: Never.self) {
            try link.run(GATTClient.WriteLongCharacteristicValues(handle: handle, value: [9, 9, 9], offset: 298, mtu: 23)).get()
        }
        #expect(fixture.recorder.lastValue == Array(Fixture.longValue.prefix(298)) + [9, 9, 9])
        var tooLong = GATTClient.WriteLongCharacteristicValues(handle: handle, value: Array(repeating: 0, count: 20), offset: 500, mtu: 23)
        #expect(tooLong.start().failure == .valueTooLong(length: 520, maximum: 512))
    }

    /// Found by the gatt-client fuzz target (Fixtures/fuzz/gatt-client/crash-prepare-write-
    /// after-mtu-shrinks): the peer's own Exchange MTU Request, after ours had agreed 24,
    /// announced 23, so the next 24-octet part no longer fitted; the bearer refused it and
    /// the parts already prepared stayed queued on the server, where a later write's
    /// Execute Write would have written them too.
    @Test("Write Long: ATT_MTU shrinks under it; the part that no longer fits is refused, the prepared parts cancelled")
    func writeLongWhenMTUShrinks() throws {
        let fixture = try Fixture()
        var link = GATTClientTestLink(fixture.database, mtu: 24)
        #expect(link.mtu == 24)
        link.interject = [1: [[0x02, 0x17, 0x00]]]           // Exchange MTU Request, Client Rx MTU 23
        let handle = fixture.valueHandle(fixture.long)
        var write = GATTClient.WriteLongCharacteristicValues(handle: handle, value: Self.newValue, mtu: link.mtu)
        let error = link.run(&write).gattError
        #expect(link.mtu == 23)
        #expect(error == .bearer(.pduTooLong(length: 24, mtu: 23)))
        #expect(link.requests.map(\.opcode) == [.prepareWriteRequest, .executeWriteRequest])
        #expect(link.requests.last == .executeWriteRequest(ExecuteWriteRequest(flags: .cancelAll)))
        #expect(fixture.recorder.recorded.isEmpty, "nothing was written")
        // A later long write executes only its own parts.
        #expect(throws: Never.self) { try link.run(GATTClient.WriteLongCharacteristicValues(handle: handle, value: [1, 2, 3], offset: 0, mtu: link.mtu)).get() }
        #expect(fixture.recorder.recorded.map(\.value) == [[1, 2, 3]], "not the 19 octets the refused write prepared")
    }

    @Test("Write Long: an error on a Prepare Write cancels the queue, then fails with it")
    func writeLongError() throws {
        let fixture = try Fixture()
        // The server takes three parts at most.
        var link = GATTClientTestLink(fixture.database, configuration: .init(prepareQueueLimit: 3))
        let handle = fixture.valueHandle(fixture.long)
        let error = link.run(GATTClient.WriteLongCharacteristicValues(handle: handle, value: Self.newValue, mtu: 23)).gattError
        #expect(error == .attributeError(.prepareQueueFull, handle: handle, request: .prepareWriteRequest))
        #expect(link.requests.map(\.opcode) == Array(repeating: ATTOpcode.prepareWriteRequest, count: 4) + [.executeWriteRequest])
        #expect(link.requests.last == .executeWriteRequest(ExecuteWriteRequest(flags: .cancelAll)))
        #expect(fixture.recorder.recorded.isEmpty)
        #expect(link.run(GATTClient.ReadLongCharacteristicValues(handle: handle, mtu: 23)).gattOutput == Fixture.longValue)

        // Refused on the first part: still cancelled, as the spec's procedure says.
        var readOnly = GATTClientTestLink(fixture.database)
        let location = fixture.valueHandle(fixture.location)
        #expect(readOnly.run(GATTClient.WriteLongCharacteristicValues(handle: location, value: [1, 2], mtu: 23)).gattError
            == .attributeError(.writeNotPermitted, handle: location, request: .prepareWriteRequest))
        #expect(readOnly.requests.map(\.opcode) == [.prepareWriteRequest, .executeWriteRequest])
    }

    @Test("Write Long: an error at Execute Write fails it with nothing to cancel")
    func writeLongExecuteError() throws {
        let fixture = try Fixture()
        var link = GATTClientTestLink(fixture.database)
        // The value is 300 octets: a part at offset 301 is queued, and refused when the
        // server assembles the value at Execute Write (Part F §3.4.6.3).
        let handle = fixture.valueHandle(fixture.long)
        let error = link.run(GATTClient.WriteLongCharacteristicValues(handle: handle, value: Array(repeating: 7, count: 30), offset: 301, mtu: 23)).gattError
        #expect(error == .attributeError(.invalidOffset, handle: handle, request: .executeWriteRequest))
        #expect(link.requests.map(\.opcode) == [.prepareWriteRequest, .prepareWriteRequest, .executeWriteRequest])
        #expect(link.requests.last == .executeWriteRequest(ExecuteWriteRequest(flags: .writeAll)))
        #expect(fixture.recorder.recorded.isEmpty)
    }

    @Test("Reliable Writes: two values, each echo verified, executed together")
    func reliableWrites() throws {
        let fixture = try Fixture()
        var link = GATTClientTestLink(fixture.database)
        let value = fixture.valueHandle(fixture.reliable)
        let description = fixture.database.handle(of: fixture.userDescription)!
        let newName = Array("A longer user description".utf8)
        var write = GATTClient.ReliableWrites([
            .init(handle: value, value: Array("ok".utf8)),
            .init(handle: description, value: newName),
        ], mtu: 23)
        #expect(throws: Never.self) { try link.run(&write).get() }
        #expect(write.prepareWriteCount == 3, "2 octets, then 25 in parts of 18 and 7")
        #expect(link.requests.map(\.opcode) == Array(repeating: ATTOpcode.prepareWriteRequest, count: 3) + [.executeWriteRequest])
        #expect(fixture.recorder.recorded.map(\.value) == [Array("ok".utf8)])
        #expect(link.run(GATTClient.ReadCharacteristicValue(handle: description, mtu: 23)).gattOutput == Array(newName.prefix(22)))
        #expect(link.run(GATTClient.ReadLongCharacteristicDescriptor(handle: description, mtu: 23)).gattOutput == newName)
        var none = GATTClient.ReliableWrites([], mtu: 23)
        #expect(none.start().isDone)
    }

    @Test("Reliable Writes: an echo that differs cancels the writes and fails; nothing is written")
    func reliableWriteEchoMismatch() throws {
        let fixture = try Fixture()
        var link = GATTClientTestLink(fixture.database)
        let value = fixture.valueHandle(fixture.reliable)
        // The server's second echo comes back with its last octet flipped.
        var echoes = 0
        link.tamper = { request, answer in
            guard request.opcode == .prepareWriteRequest else { return answer }
            echoes += 1
            guard echoes == 2 else { return answer }
            return answer.dropLast() + [answer.last! ^ 0xFF]
        }
        let long = Array(repeating: UInt8(0x5A), count: 30)
        let error = link.run(GATTClient.ReliableWrites([.init(handle: value, value: long)], mtu: 23)).gattError
        #expect(error == .reliableWriteEchoMismatch(handle: value, offset: 18))
        #expect(link.requests.map(\.opcode) == [.prepareWriteRequest, .prepareWriteRequest, .executeWriteRequest])
        #expect(link.requests.last == .executeWriteRequest(ExecuteWriteRequest(flags: .cancelAll)))
        #expect(fixture.recorder.recorded.isEmpty)
        link.tamper = nil
        #expect(link.run(GATTClient.ReadCharacteristicValue(handle: value, mtu: 23)).gattOutput == Array("rw".utf8))
        #expect(error?.description.contains("nothing was written") == true)
    }

    @Test("Reliable Writes driven by hand: each kind of echo mismatch")
    func reliableWriteEchoMismatchByHand() {
        let part = [UInt8](repeating: 1, count: 3)
        let echoes: [PrepareWriteResponse] = [
            .init(handle: 0x0011, valueOffset: 0, partAttributeValue: [1, 1, 2]),
            .init(handle: 0x0012, valueOffset: 0, partAttributeValue: part[...]),
            .init(handle: 0x0011, valueOffset: 1, partAttributeValue: part[...]),
            .init(handle: 0x0011, valueOffset: 0, partAttributeValue: [1, 1]),
        ]
        for echo in echoes {
            var write = GATTClient.ReliableWrites([.init(handle: 0x0011, value: part)], mtu: 23)
            #expect(write.start().request == .prepareWriteRequest(.init(handle: 0x0011, valueOffset: 0, partAttributeValue: part[...])))
            #expect(write.receive(.prepareWriteResponse(echo)).request == .executeWriteRequest(.init(flags: .cancelAll)))
            #expect(write.receive(.executeWriteResponse(.init())).failure == .reliableWriteEchoMismatch(handle: 0x0011, offset: 0))
            #expect(write.receive(.executeWriteResponse(.init())).failure == .unexpectedResponse(.executeWriteResponse, request: nil))
        }
        // A long write checks handle and offset, not the bytes.
        var long = GATTClient.WriteLongCharacteristicValues(handle: 0x0011, value: part, mtu: 23)
        _ = long.start()
        #expect(long.receive(.prepareWriteResponse(echoes[0])).request == .executeWriteRequest(.init(flags: .writeAll)))
        var wrongOffset = GATTClient.WriteLongCharacteristicValues(handle: 0x0011, value: part, mtu: 23)
        _ = wrongOffset.start()
        #expect(wrongOffset.receive(.prepareWriteResponse(echoes[2])).request == .executeWriteRequest(.init(flags: .cancelAll)))
        #expect(wrongOffset.receive(.errorResponse(.init(requestOpcode: .executeWriteRequest, handle: 0, errorCode: .unlikelyError)))
            .failure == .malformedResponse(.prepareWriteEchoMismatch(handle: 0x0011, offset: 0, echoedHandle: 0x0011, echoedOffset: 1)))
    }

    @Test("cancelling a long write mid-way discards what was prepared", arguments: [1, 3, 23])
    func cancelledLongWrite(at request: Int) throws {
        let fixture = try Fixture()
        var link = GATTClientTestLink(fixture.database)
        let handle = fixture.valueHandle(fixture.long)
        var write = GATTClient.WriteLongCharacteristicValues(handle: handle, value: Self.newValue, mtu: 23)
        #expect(link.run(&write, cancelAt: request).gattError == .cancelled)
        #expect(link.requests.count == request + 1)
        #expect(link.requests.last == .executeWriteRequest(ExecuteWriteRequest(flags: .cancelAll)))
        #expect(fixture.recorder.recorded.isEmpty)
        #expect(link.run(GATTClient.ReadLongCharacteristicValues(handle: handle, mtu: 23)).gattOutput == Fixture.longValue)
        #expect(write.cancel() == nil, "finished: nothing more to do")
    }

    @Test("cancel: before start fails at once; once Execute Write is out, the write's outcome stands")
    func cancelEdges() throws {
        var unstarted = GATTClient.WriteLongCharacteristicValues(handle: 3, value: [1, 2, 3], mtu: 23)
        #expect(unstarted.cancel()?.failure == .cancelled)
        #expect(unstarted.start().failure == .notSupported("this procedure has already started: a procedure runs once; make a new one"))

        let fixture = try Fixture()
        var link = GATTClientTestLink(fixture.database)
        let handle = fixture.valueHandle(fixture.long)
        var write = GATTClient.WriteLongCharacteristicValues(handle: handle, value: [4, 5, 6], mtu: 23)
        // Request 2 is Execute Write: the server writes, so the procedure reports it.
        #expect(link.run(&write, cancelAt: 2).gattOutput != nil)
        #expect(fixture.recorder.lastValue == [4, 5, 6])

        var single = GATTClientTestLink(fixture.database)
        var plain = GATTClient.WriteCharacteristicValue(handle: fixture.valueHandle(fixture.controlPoint), value: [0x01], mtu: 23)
        #expect(single.run(&plain, cancelAt: 1).gattOutput != nil, "the Write Response says it was written")
    }

    @Test("descriptors write like values: Write and Write Long of the User Description")
    func writeDescriptors() throws {
        let fixture = try Fixture()
        var link = GATTClientTestLink(fixture.database)
        let handle = fixture.database.handle(of: fixture.userDescription)!
        #expect(throws: Never.self) { try link.run(GATTClient.WriteCharacteristicDescriptor(handle: handle, value: Array("Short".utf8), mtu: 23)).get() }
        #expect(link.run(GATTClient.ReadCharacteristicDescriptor(handle: handle, mtu: 23)).gattOutput == Array("Short".utf8))
        let long = Array(String(repeating: "long name ", count: 6).utf8)
        #expect(throws: Never.self) { try link.run(GATTClient.WriteLongCharacteristicDescriptor(handle: handle, value: long, mtu: 23)).get() }
        #expect(link.run(GATTClient.ReadLongCharacteristicDescriptor(handle: handle, mtu: 23)).gattOutput == long)
    }

    @Test("CCCD configuration: notifications on, a value arrives, off again; a property the characteristic lacks is refused")
    func clientCharacteristicConfiguration() throws {
        let fixture = try Fixture()
        var link = GATTClientTestLink(fixture.database)
        let cache = try link.run(GATTClient.DiscoverDatabase(mtu: 23)).get()
        let battery = try #require(cache.characteristics(uuid: BluetoothUUID(0x2A19)).first)
        let cccd = try #require(cache.clientConfigurationHandle(of: battery))
        #expect(cccd == battery.valueHandle + 1)

        link.requests = []
        #expect(throws: Never.self) {
            try link.run(GATTClient.WriteClientCharacteristicConfiguration(battery, descriptorHandle: cccd, configuration: .notification, mtu: 23)).get()
        }
        #expect(link.requests == [.writeRequest(WriteRequest(handle: cccd, value: [0x01, 0x00]))])
        #expect(link.server.configuration(of: fixture.batteryLevel, for: link.connection) == .notification)
        try link.push(link.server.update(fixture.batteryLevel, value: [0x63]))
        #expect(link.notifications == [.init(handle: battery.valueHandle, value: [0x63])])

        var indications = GATTClient.WriteClientCharacteristicConfiguration(battery, descriptorHandle: cccd, configuration: .indication, mtu: 23)
        guard case let .failed(.notSupported(reason)) = indications.start() else {
            Issue.record("indications refused: Battery Level only notifies")
            return
        }
        #expect(reason.contains("indicate"))

        #expect(throws: Never.self) {
            try link.run(GATTClient.WriteClientCharacteristicConfiguration(handle: cccd, configuration: [], mtu: 23)).get()
        }
        #expect(link.requests.last == .writeRequest(WriteRequest(handle: cccd, value: [0x00, 0x00])))
        #expect(link.server.configuration(of: fixture.batteryLevel, for: link.connection) == [])

        // Indications: confirmed by the bearer, handed up.
        let both = try #require(cache.characteristics(uuid: Fixture.customUUID(8)).first)
        let bothCCCD = try #require(cache.clientConfigurationHandle(of: both))
        #expect(throws: Never.self) {
            try link.run(GATTClient.WriteClientCharacteristicConfiguration(both, descriptorHandle: bothCCCD, configuration: .indication, mtu: 23)).get()
        }
        try link.push(link.server.update(fixture.both, value: [0x01, 0x02]))
        #expect(link.indications == [.init(handle: both.valueHandle, value: [0x01, 0x02])])
    }
}
