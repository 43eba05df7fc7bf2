import SwiftATTPDU
import SwiftATTCore
import SwiftATTGATT
import Testing

/// Reading against the in-repo GATT server: Read, Read Using Characteristic UUID, Read
/// Long, Read Multiple, Read Multiple Variable, descriptors, and the server's refusals.
/// Core 5.4 Vol 3 Part G §4.8, §4.12.1–§4.12.2.
@Suite("GATT client: reads")
struct GATTClientReadTests {
    typealias Fixture = GATTClientFixture

    @Test("Read Characteristic Value: one Read Request")
    func readValue() throws {
        let fixture = try Fixture()
        var link = GATTClientTestLink(fixture.database)
        #expect(link.run(GATTClient.ReadCharacteristicValue(handle: fixture.valueHandle(fixture.location), mtu: 23)).gattOutput == [0x01])
        #expect(link.run(GATTClient.ReadCharacteristicValue(handle: 0x0003, mtu: 23)).gattOutput == Array("swift-att".utf8))
        // A long value is cut at ATT_MTU−1.
        #expect(link.run(GATTClient.ReadCharacteristicValue(handle: fixture.valueHandle(fixture.long), mtu: 23)).gattOutput == Array(Fixture.longValue.prefix(22)))
        #expect(link.requests.map(\.opcode) == [.readRequest, .readRequest, .readRequest])
    }

    @Test("Read Using Characteristic UUID: every match, with its handle")
    func readByUUID() throws {
        let fixture = try Fixture()
        var link = GATTClientTestLink(fixture.database)
        let battery = try link.run(GATTClient.ReadUsingCharacteristicUUID(uuid: BluetoothUUID(0x2A19), mtu: 23)).get()
        #expect(battery == [.init(handle: fixture.valueHandle(fixture.batteryLevel), value: [0x64])])
        #expect(link.requests.count == 2, "continues after the match, to Attribute Not Found")

        let custom = try link.run(GATTClient.ReadUsingCharacteristicUUID(uuid: Fixture.customUUID(4), mtu: 23)).get()
        #expect(custom == [.init(handle: fixture.valueHandle(fixture.pair), value: [0x11, 0x22])])
        #expect(try link.run(GATTClient.ReadUsingCharacteristicUUID(uuid: BluetoothUUID(0x2A6E), mtu: 23)).get() == [])

        // Limited to a range that ends at the match: one request.
        let handle = fixture.valueHandle(fixture.location)
        var inRange = GATTClientTestLink(fixture.database)
        #expect(inRange.run(GATTClient.ReadUsingCharacteristicUUID(uuid: BluetoothUUID(0x2A38), range: 1...handle, mtu: 23)).gattOutput
            == [.init(handle: handle, value: [0x01])])
        #expect(inRange.requests.count == 1)
    }

    @Test("Read Long: a 300-octet value at ATT_MTU 23 takes a Read and 13 Read Blobs", arguments: [(nil, 13), (247, 1)])
    func readLong(mtu: Int?, blobs: Int) throws {
        let fixture = try Fixture()
        var link = GATTClientTestLink(fixture.database, mtu: mtu)
        var read = GATTClient.ReadLongCharacteristicValues(handle: fixture.valueHandle(fixture.long), mtu: link.mtu)
        #expect(link.run(&read).gattOutput == Fixture.longValue)
        #expect(read.readBlobCount == blobs)
        #expect(link.count(.readRequest) == 1)
        #expect(link.count(.readBlobRequest) == blobs)
        // 22 octets, then 13 blobs at 22, 44, … 286: 12 full ones and a last of 14.
        let offsets = link.requests.compactMap { pdu -> UInt16? in
            if case let .readBlobRequest(r) = pdu { return r.valueOffset }
            return nil
        }
        let step = UInt16(link.mtu - 1)
        #expect(offsets == (1...blobs).map { UInt16($0) * step })
    }

    @Test("Read Long: Attribute Not Long on the first Read Blob ends it with the value read")
    func readLongNotLong() throws {
        let fixture = try Fixture()
        var link = GATTClientTestLink(fixture.database)
        var read = GATTClient.ReadLongCharacteristicValues(handle: fixture.valueHandle(fixture.exact22), mtu: 23)
        #expect(link.run(&read).gattOutput == Fixture.exact22Value)
        #expect(read.readBlobCount == 1)

        // A value shorter than ATT_MTU−1 needs no Read Blob at all.
        var short = GATTClient.ReadLongCharacteristicValues(handle: fixture.valueHandle(fixture.pair), mtu: 23)
        #expect(link.run(&short).gattOutput == [0x11, 0x22])
        #expect(short.readBlobCount == 0)
    }

    @Test("Read Long from an offset starts with Read Blob")
    func readLongFromOffset() throws {
        let fixture = try Fixture()
        var link = GATTClientTestLink(fixture.database)
        let value = try link.run(GATTClient.ReadLongCharacteristicValues(handle: fixture.valueHandle(fixture.long), offset: 250, mtu: 23)).get()
        #expect(value == Array(Fixture.longValue[250...]))
        #expect(link.requests.first == .readBlobRequest(ReadBlobRequest(handle: fixture.valueHandle(fixture.long), valueOffset: 250)))
        #expect(link.count(.readRequest) == 0)
    }

    @Test("Read Multiple splits the concatenated values by the lengths given")
    func readMultiple() throws {
        let fixture = try Fixture()
        var link = GATTClientTestLink(fixture.database)
        let values = try link.run(GATTClient.ReadMultipleCharacteristicValues([
            (fixture.valueHandle(fixture.pair), 2), (fixture.valueHandle(fixture.quad), 4), (fixture.valueHandle(fixture.location), 1),
        ], mtu: 23)).get()
        #expect(values == [[0x11, 0x22], [0x01, 0x02, 0x03, 0x04], [0x01]])
        #expect(link.requests == [.readMultipleRequest(ReadMultipleRequest(setOfHandles: ATTHandleList([
            fixture.valueHandle(fixture.pair), fixture.valueHandle(fixture.quad), fixture.valueHandle(fixture.location)])))])

        // Lengths that do not add up to the response fail it.
        let wrong = link.run(GATTClient.ReadMultipleCharacteristicValues([
            (fixture.valueHandle(fixture.pair), 2), (fixture.valueHandle(fixture.quad), 3)], mtu: 23))
        #expect(wrong.gattError == .malformedResponse(.lengthMismatch(.readMultipleResponse, expected: 5, found: 6)))

        // One handle: a Read Request (Read Multiple needs two); none: nothing sent.
        var one = GATTClientTestLink(fixture.database)
        #expect(one.run(GATTClient.ReadMultipleCharacteristicValues([(fixture.valueHandle(fixture.quad), 4)], mtu: 23)).gattOutput == [[1, 2, 3, 4]])
        #expect(one.requests.map(\.opcode) == [.readRequest])
        var none = GATTClient.ReadMultipleCharacteristicValues([], mtu: 23)
        #expect(none.start() == .done([]))
    }

    @Test("Read Multiple refuses what cannot fit before sending anything")
    func readMultipleLimits() {
        var long = GATTClient.ReadMultipleCharacteristicValues([(1, 20), (2, 3)], mtu: 23)
        #expect(long.start() == .failed(.valueTooLong(length: 23, maximum: 22)))
        var many = GATTClient.ReadMultipleCharacteristicValues((1...12).map { ($0, 1) }, mtu: 23)
        #expect(many.start() == .failed(.tooManyHandles(count: 12, maximum: 11)))
        #expect(GATTClient.ReadMultipleCharacteristicValues.maximumHandles(mtu: 247) == 123)
        var negative = GATTClient.ReadMultipleCharacteristicValues([(1, 2), (2, -1)], mtu: 23)
        guard case .failed(.notSupported) = negative.start() else {
            Issue.record("a negative length is refused")
            return
        }
        var variable = GATTClient.ReadMultipleVariableLengthCharacteristicValues(handles: Array(1...12), mtu: 23)
        #expect(variable.start() == .failed(.tooManyHandles(count: 12, maximum: 11)))
    }

    @Test("Read Multiple Variable: values whole, the cut and left-out ones completed", arguments: [nil, 247])
    func readMultipleVariable(mtu: Int?) throws {
        let fixture = try Fixture()
        var link = GATTClientTestLink(fixture.database, mtu: mtu)
        let handles = [fixture.valueHandle(fixture.pair), fixture.valueHandle(fixture.long), fixture.valueHandle(fixture.location),
                       fixture.valueHandle(fixture.reliable)]
        let values = try link.run(GATTClient.ReadMultipleVariableLengthCharacteristicValues(handles: handles, mtu: link.mtu)).get()
        #expect(values == [[0x11, 0x22], Fixture.longValue, [0x01], Array("rw".utf8)])
        #expect(link.requests.first == .readMultipleVariableRequest(ReadMultipleVariableRequest(setOfHandles: ATTHandleList(handles))))
        if mtu == nil {
            // 22 octets: 11 22 whole, 16 octets of the long value; the rest left out.
            // The other 284 octets take 13 Read Blobs (12 full, one of 20); the two values
            // left out come together in a second Read Multiple Variable.
            #expect(link.requests.map(\.opcode) == [.readMultipleVariableRequest]
                + Array(repeating: ATTOpcode.readBlobRequest, count: 13) + [.readMultipleVariableRequest])
            #expect(link.requests[1] == .readBlobRequest(ReadBlobRequest(handle: handles[1], valueOffset: 16)))
            #expect(link.requests.last == .readMultipleVariableRequest(
                ReadMultipleVariableRequest(setOfHandles: ATTHandleList(Array(handles[2...])))))
        } else {
            // 246 octets: the long value is cut after 236; one Read Blob finishes it, and
            // the two values left out after it come in a second Read Multiple Variable.
            #expect(link.requests.map(\.opcode) == [.readMultipleVariableRequest, .readBlobRequest, .readMultipleVariableRequest])
        }

        // Short values: one request.
        var short = GATTClientTestLink(fixture.database)
        #expect(short.run(GATTClient.ReadMultipleVariableLengthCharacteristicValues(
            handles: [fixture.valueHandle(fixture.pair), fixture.valueHandle(fixture.location)], mtu: 23)).gattOutput == [[0x11, 0x22], [0x01]])
        #expect(short.requests.count == 1)
        // One handle: Read Long; none: nothing.
        var one = GATTClientTestLink(fixture.database)
        #expect(one.run(GATTClient.ReadMultipleVariableLengthCharacteristicValues(handles: [fixture.valueHandle(fixture.long)], mtu: 23)).gattOutput
            == [Fixture.longValue])
        #expect(one.requests.first?.opcode == .readRequest)
        var none = GATTClient.ReadMultipleVariableLengthCharacteristicValues(handles: [], mtu: 23)
        #expect(none.start() == .done([]))
    }

    @Test("descriptors read like values: Read, and Read Long")
    func readDescriptors() throws {
        let fixture = try Fixture()
        var link = GATTClientTestLink(fixture.database)
        let handle = fixture.database.handle(of: fixture.userDescription)!
        #expect(link.run(GATTClient.ReadCharacteristicDescriptor(handle: handle, mtu: 23)).gattOutput == Array("Name".utf8))
        #expect(link.run(GATTClient.ReadLongCharacteristicDescriptor(handle: handle, mtu: 23)).gattOutput == Array("Name".utf8))
        // The Extended Properties descriptor: Reliable Write | Writable Auxiliaries.
        #expect(link.run(GATTClient.ReadCharacteristicDescriptor(handle: fixture.valueHandle(fixture.reliable) + 1, mtu: 23)).gattOutput == [0x03, 0x00])
    }

    @Test("the server's refusals come back as attribute errors naming the handle and request")
    func readErrors() throws {
        let fixture = try Fixture()
        var link = GATTClientTestLink(fixture.database)
        let writeOnly = fixture.valueHandle(fixture.writeOnly)
        let protected = fixture.valueHandle(fixture.protected)

        let notPermitted = link.run(GATTClient.ReadCharacteristicValue(handle: writeOnly, mtu: 23)).gattError
        #expect(notPermitted == .attributeError(.readNotPermitted, handle: writeOnly, request: .readRequest))
        let authentication = link.run(GATTClient.ReadCharacteristicValue(handle: protected, mtu: 23)).gattError
        #expect(authentication == .attributeError(.insufficientAuthentication, handle: protected, request: .readRequest))
        #expect(authentication?.description.contains("pair with MITM protection") == true)
        #expect(link.run(GATTClient.ReadLongCharacteristicValues(handle: protected, mtu: 23)).gattError
            == .attributeError(.insufficientAuthentication, handle: protected, request: .readRequest))
        #expect(link.run(GATTClient.ReadUsingCharacteristicUUID(uuid: Fixture.customUUID(6), mtu: 23)).gattError
            == .attributeError(.insufficientAuthentication, handle: protected, request: .readByTypeRequest))
        #expect(link.run(GATTClient.ReadMultipleCharacteristicValues([(fixture.valueHandle(fixture.pair), 2), (writeOnly, 0)], mtu: 23)).gattError
            == .attributeError(.readNotPermitted, handle: writeOnly, request: .readMultipleRequest))
        #expect(link.run(GATTClient.ReadMultipleVariableLengthCharacteristicValues(handles: [protected, writeOnly], mtu: 23)).gattError
            == .attributeError(.insufficientAuthentication, handle: protected, request: .readMultipleVariableRequest))
        #expect(link.run(GATTClient.ReadCharacteristicValue(handle: 0x0FFF, mtu: 23)).gattError
            == .attributeError(.invalidHandle, handle: 0x0FFF, request: .readRequest))

        // The same value reads once the link is authenticated.
        var paired = GATTClientTestLink(fixture.database, security: .authenticated(keySize: 16))
        #expect(paired.run(GATTClient.ReadCharacteristicValue(handle: protected, mtu: 23)).gattOutput == [0x42])
    }
}
