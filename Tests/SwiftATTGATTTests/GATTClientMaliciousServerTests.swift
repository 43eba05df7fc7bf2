import SwiftATTPDU
import SwiftATTCore
import SwiftATTGATT
import Testing
import TestSupport

/// Servers that answer wrong: handles backwards or repeated, groups inside out, values
/// of impossible lengths, empty lists, other requests' responses, endless long values,
/// and random answers. No procedure loops or traps; each fails with a typed error.
@Suite("GATT client: a malicious server")
struct GATTClientMaliciousServerTests {
    /// Runs `procedure`, answering each request with `answer`, until it ends.
    static func drive<P: GATTProcedure>(
        _ procedure: P, limit: Int = 200_000, sourceLocation: SourceLocation = #_sourceLocation,
        _ answer: (ATTPDU) -> ATTPDU?
    ) -> (result: Result<P.Output, GATTClientError>, requests: [ATTPDU]) {
        var procedure = procedure
        var requests: [ATTPDU] = []
        var step = procedure.start()
        while true {
            switch step {
            case let .done(output): return (.success(output), requests)
            case let .failed(error): return (.failure(error), requests)
            case let .request(pdu):
                requests.append(pdu)
                guard requests.count <= limit else {
                    Issue.record("no end after \(limit) requests", sourceLocation: sourceLocation)
                    return (.failure(.cancelled), requests)
                }
                // No answer: the bearer would fail the request (malformed, timed out).
                guard let response = answer(pdu) else { return (.failure(.timedOut), requests) }
                step = procedure.receive(response)
            }
        }
    }

    static func groups(_ entries: [(UInt16, UInt16, [UInt8])]) throws -> ATTPDU {
        .readByGroupTypeResponse(try ReadByGroupTypeResponse(entries.map { .init(attributeHandle: $0.0, endGroupHandle: $0.1, value: $0.2[...]) }))
    }

    static func byType(_ entries: [(UInt16, [UInt8])]) throws -> ATTPDU {
        .readByTypeResponse(try ReadByTypeResponse(entries.map { .init(handle: $0.0, value: $0.1[...]) }))
    }

    static func error(_ request: ATTPDU, _ code: ATTErrorCode, handle: UInt16 = 0) -> ATTPDU {
        .errorResponse(ErrorResponse(requestOpcode: request.opcode, handle: handle, errorCode: code))
    }

    @Test("service discovery: a group listed again, or going backwards, fails the procedure at once")
    func servicesBackwards() throws {
        let heartRate: [UInt8] = [0x0D, 0x18]
        // The same answer forever: the second one goes back to 0x0010 after 0x0021 was asked.
        let same = try Self.groups([(0x0010, 0x0020, heartRate)])
        let (repeated, requests) = Self.drive(GATTClient.DiscoverPrimaryServices(mtu: 23)) { _ in same }
        #expect(repeated.gattError == .malformedResponse(.handleOutOfOrder(.readByGroupTypeResponse, handle: 0x0010, expectedAtLeast: 0x0021)))
        #expect(requests.count == 2)

        // Within one answer: the second group starts inside the first.
        let overlapping = try Self.groups([(0x0001, 0x0008, heartRate), (0x0005, 0x0009, heartRate)])
        #expect(Self.drive(GATTClient.DiscoverPrimaryServices(mtu: 23)) { _ in overlapping }.result.gattError
            == .malformedResponse(.handleOutOfOrder(.readByGroupTypeResponse, handle: 0x0005, expectedAtLeast: 0x0009)))

        // A group that ends before it starts.
        let inverted = try Self.groups([(0x0010, 0x0004, heartRate)])
        #expect(Self.drive(GATTClient.DiscoverPrimaryServices(mtu: 23)) { _ in inverted }.result.gattError
            == .malformedResponse(.invalidGroup(.readByGroupTypeResponse, start: 0x0010, end: 0x0004)))

        // A group before the requested range.
        let early = try Self.groups([(0x0002, 0x0003, heartRate)])
        #expect(Self.drive(GATTClient.DiscoverPrimaryServices(range: 0x0010...0x0020, mtu: 23)) { _ in early }.result.gattError
            == .malformedResponse(.handleOutOfOrder(.readByGroupTypeResponse, handle: 0x0002, expectedAtLeast: 0x0010)))
        // And one after it.
        let late = try Self.groups([(0x0030, 0x0031, heartRate)])
        #expect(Self.drive(GATTClient.DiscoverPrimaryServices(range: 0x0010...0x0020, mtu: 23)) { _ in late }.result.gattError
            == .malformedResponse(.handleOutsideRange(.readByGroupTypeResponse, handle: 0x0030, range: 0x0010...0x0020)))

        // A 32-bit service UUID: ATT has none.
        let wide = try Self.groups([(0x0001, 0x0002, [1, 2, 3, 4])])
        #expect(Self.drive(GATTClient.DiscoverPrimaryServices(mtu: 23)) { _ in wide }.result.gattError
            == .malformedResponse(.invalidValueLength(.readByGroupTypeResponse, handle: 0x0001, length: 4, expected: [2, 16])))

        // By UUID: the same found handle again.
        let found = ATTPDU.findByTypeValueResponse(try FindByTypeValueResponse([.init(foundAttributeHandle: 0x0005, groupEndHandle: 0x0007)]))
        #expect(Self.drive(GATTClient.DiscoverPrimaryServices(uuid: BluetoothUUID(0x180D), mtu: 23)) { _ in found }.result.gattError
            == .malformedResponse(.handleOutOfOrder(.findByTypeValueResponse, handle: 0x0005, expectedAtLeast: 0x0008)))
    }

    @Test("a group ending at 0xFFFF ends discovery; nothing can follow it")
    func groupAtTheEnd() throws {
        let last = try Self.groups([(0xFFF0, 0xFFFF, [0x0D, 0x18])])
        let (result, requests) = Self.drive(GATTClient.DiscoverPrimaryServices(mtu: 23)) { _ in last }
        #expect(result.gattOutput == [GATTClient.Service(uuid: BluetoothUUID(0x180D), handles: 0xFFF0...0xFFFF)])
        #expect(requests.count == 1)
        let beyond = try Self.groups([(0xFFF0, 0xFFFF, [0x0D, 0x18]), (0xFFFF, 0xFFFF, [0x0F, 0x18])])
        #expect(Self.drive(GATTClient.DiscoverPrimaryServices(mtu: 23)) { _ in beyond }.result.gattError
            == .malformedResponse(.handleOutOfOrder(.readByGroupTypeResponse, handle: 0xFFFF, expectedAtLeast: 0xFFFF)))
    }

    @Test("characteristic discovery: value handles not after their declaration, impossible declarations")
    func characteristicsMalformed() throws {
        let range: ClosedRange<UInt16> = 0x0010...0x0020
        func run(_ answer: ATTPDU) -> GATTClientError? {
            Self.drive(GATTClient.DiscoverCharacteristics(range: range, mtu: 23)) { _ in answer }.result.gattError
        }
        #expect(try run(Self.byType([(0x0012, [0x02, 0x12, 0x00, 0x38, 0x2A])]))
            == .malformedResponse(.handleOutOfOrder(.readByTypeResponse, handle: 0x0012, expectedAtLeast: 0x0013)))
        #expect(try run(Self.byType([(0x0012, [0x02, 0x05, 0x00, 0x38, 0x2A])]))
            == .malformedResponse(.handleOutOfOrder(.readByTypeResponse, handle: 0x0005, expectedAtLeast: 0x0013)))
        #expect(try run(Self.byType([(0x0012, [0x02, 0x30, 0x00, 0x38, 0x2A])]))
            == .malformedResponse(.handleOutsideRange(.readByTypeResponse, handle: 0x0030, range: range)))
        #expect(try run(Self.byType([(0x0012, [0x02, 0x13, 0x00, 0x38, 0x2A, 0x00, 0x00])]))
            == .malformedResponse(.invalidValueLength(.readByTypeResponse, handle: 0x0012, length: 7, expected: [5, 19])))
        // The next declaration inside the previous one's value.
        #expect(try run(Self.byType([(0x0012, [0x02, 0x14, 0x00, 0x38, 0x2A]), (0x0014, [0x02, 0x15, 0x00, 0x39, 0x2A])]))
            == .malformedResponse(.handleOutOfOrder(.readByTypeResponse, handle: 0x0014, expectedAtLeast: 0x0015)))
        // The same answer twice.
        let same = try Self.byType([(0x0012, [0x02, 0x13, 0x00, 0x38, 0x2A])])
        let (result, requests) = Self.drive(GATTClient.DiscoverCharacteristics(range: range, mtu: 23)) { _ in same }
        #expect(result.gattError == .malformedResponse(.handleOutOfOrder(.readByTypeResponse, handle: 0x0012, expectedAtLeast: 0x0014)))
        #expect(requests.count == 2)
    }

    @Test("included services: an include of nothing, a 128-bit UUID of the wrong length")
    func includesMalformed() throws {
        let range: ClosedRange<UInt16> = 0x0010...0x0020
        let zero = try Self.byType([(0x0011, [0x00, 0x00, 0x05, 0x00, 0x0F, 0x18])])
        #expect(Self.drive(GATTClient.FindIncludedServices(range: range, mtu: 23)) { _ in zero }.result.gattError
            == .malformedResponse(.invalidGroup(.readByTypeResponse, start: 0x0000, end: 0x0005)))
        let odd = try Self.byType([(0x0011, [0x30, 0x00, 0x35, 0x00, 0x0F])])
        #expect(Self.drive(GATTClient.FindIncludedServices(range: range, mtu: 23)) { _ in odd }.result.gattError
            == .malformedResponse(.invalidValueLength(.readByTypeResponse, handle: 0x0011, length: 5, expected: [4, 6])))
        let long = try Self.byType([(0x0011, [0x30, 0x00, 0x35, 0x00])])
        let (result, requests) = Self.drive(GATTClient.FindIncludedServices(range: range, mtu: 23)) { request in
            request.opcode == .readRequest ? .readResponse(ReadResponse(value: [1, 2, 3])) : long
        }
        #expect(result.gattError == .malformedResponse(.invalidValueLength(.readResponse, handle: 0x0030, length: 3, expected: [16])))
        #expect(requests.map(\.opcode) == [.readByTypeRequest, .readRequest])
    }

    @Test("descriptors and Read Using Characteristic UUID: a handle listed again fails at once")
    func repeatedHandles() throws {
        let info = ATTPDU.findInformationResponse(try FindInformationResponse([.init(handle: 0x0013, uuid: BluetoothUUID(0x2902))]))
        let (result, requests) = Self.drive(GATTClient.DiscoverAllCharacteristicDescriptors(range: 0x0013...0x0020, mtu: 23)) { _ in info }
        #expect(result.gattError == .malformedResponse(.handleOutOfOrder(.findInformationResponse, handle: 0x0013, expectedAtLeast: 0x0014)))
        #expect(requests.count == 2)
        let outside = ATTPDU.findInformationResponse(try FindInformationResponse([.init(handle: 0x0030, uuid: BluetoothUUID(0x2902))]))
        #expect(Self.drive(GATTClient.DiscoverAllCharacteristicDescriptors(range: 0x0013...0x0020, mtu: 23)) { _ in outside }.result.gattError
            == .malformedResponse(.handleOutsideRange(.findInformationResponse, handle: 0x0030, range: 0x0013...0x0020)))

        let values = try Self.byType([(0x0020, [1]), (0x0010, [2])])
        #expect(Self.drive(GATTClient.ReadUsingCharacteristicUUID(uuid: BluetoothUUID(0x2A19), mtu: 23)) { _ in values }.result.gattError
            == .malformedResponse(.handleOutOfOrder(.readByTypeResponse, handle: 0x0010, expectedAtLeast: 0x0021)))
    }

    @Test("a long value that never ends stops at the 512-octet limit")
    func endlessLongValue() {
        let full = [UInt8](repeating: 0xEE, count: 22)
        let (result, requests) = Self.drive(GATTClient.ReadLongCharacteristicValues(handle: 0x0003, mtu: 23)) { request in
            request.opcode == .readRequest ? .readResponse(ReadResponse(value: full[...])) : .readBlobResponse(ReadBlobResponse(value: full[...]))
        }
        #expect(result.gattError == .malformedResponse(.valueExceedsLimit(handle: 0x0003, length: 528)))
        #expect(requests.count == 24)

        // Exactly 512 octets in full answers: done at 512, no Read Blob at offset 512.
        let half = [UInt8](repeating: 0x11, count: 256)
        let (whole, asked) = Self.drive(GATTClient.ReadLongCharacteristicValues(handle: 0x0003, mtu: 257)) { request in
            request.opcode == .readRequest ? .readResponse(ReadResponse(value: half[...])) : .readBlobResponse(ReadBlobResponse(value: half[...]))
        }
        #expect(whole.gattOutput?.count == 512)
        #expect(asked.count == 2)
    }

    @Test("answers to other requests, or with nothing outstanding, are unexpected")
    func wrongOpcodes() {
        var read = GATTClient.ReadCharacteristicValue(handle: 0x0003, mtu: 23)
        #expect(read.receive(.readResponse(ReadResponse(value: [1]))) == .failed(.unexpectedResponse(.readResponse, request: nil)))

        read = GATTClient.ReadCharacteristicValue(handle: 0x0003, mtu: 23)
        _ = read.start()
        #expect(read.receive(.writeResponse(WriteResponse())) == .failed(.unexpectedResponse(.writeResponse, request: .readRequest)))
        #expect(read.receive(.readResponse(ReadResponse(value: [1]))) == .failed(.unexpectedResponse(.readResponse, request: nil)),
                "over: later answers change nothing")

        var discovery = GATTClient.DiscoverPrimaryServices(mtu: 23)
        _ = discovery.start()
        let otherError = ATTPDU.errorResponse(ErrorResponse(requestOpcode: .readRequest, handle: 1, errorCode: .attributeNotFound))
        #expect(discovery.receive(otherError) == .failed(.unexpectedResponse(.errorResponse, request: .readByGroupTypeRequest)))

        // A notification handed in as an answer.
        var write = GATTClient.WriteLongCharacteristicValues(handle: 0x0003, value: [1], mtu: 23)
        _ = write.start()
        let notification = ATTPDU.handleValueNotification(HandleValueNotification(handle: 3, value: [1]))
        // Prepared writes may be queued: cancel them, then fail.
        #expect(write.receive(notification).request == .executeWriteRequest(ExecuteWriteRequest(flags: .cancelAll)))
        #expect(write.receive(.executeWriteResponse(ExecuteWriteResponse())).failure
            == .unexpectedResponse(.handleValueNotification, request: .prepareWriteRequest))
    }

    @Test("other malformed answers: too many values, a hash of the wrong length")
    func otherMalformed() {
        let tuples = ATTPDU.readMultipleVariableResponse(ReadMultipleVariableResponse([
            .init(value: [1]), .init(value: [2]), .init(value: [3])]))
        #expect(Self.drive(GATTClient.ReadMultipleVariableLengthCharacteristicValues(handles: [1, 2], mtu: 23)) { _ in tuples }.result.gattError
            == .malformedResponse(.tooManyValues(.readMultipleVariableResponse, expected: 2, found: 3)))
        let hash = try? Self.byType([(0x000D, [1, 2, 3])])
        #expect(Self.drive(GATTClient.CheckDatabaseHash(cached: nil, mtu: 23)) { _ in hash }.result.gattError
            == .malformedResponse(.invalidValueLength(.readByTypeResponse, handle: 0x000D, length: 3, expected: [16])))
    }

    @Test("over the link: an empty list fails with the decoding error; an answer to another request times out")
    func overTheLink() throws {
        let fixture = try GATTClientFixture()
        var empty = GATTClientTestLink(fixture.database)
        empty.tamper = { _, _ in [0x11, 0x06] }
        #expect(empty.run(GATTClient.DiscoverPrimaryServices(mtu: 23)).gattError
            == .malformedResponse(.undecodable(.tooFewEntries(.readByGroupTypeResponse, count: 0, minimum: 1))))
        #expect(empty.requests.count == 1)

        // The bearer drops a Write Response to a Read Request; the request times out.
        var wrong = GATTClientTestLink(fixture.database)
        wrong.tamper = { _, _ in [0x13] }
        #expect(wrong.run(GATTClient.ReadCharacteristicValue(handle: 0x0003, mtu: 23)).gattError == .timedOut)
        #expect(wrong.client.isClosed)

        // Descriptors whose answers go backwards, through the bearer.
        var backwards = GATTClientTestLink(fixture.database)
        backwards.tamper = { request, answer in
            guard case .findInformationRequest = request else { return answer }
            return [0x05, 0x01, 0x01, 0x00, 0x02, 0x29]
        }
        #expect(backwards.run(GATTClient.DiscoverDatabase(mtu: 23)).gattError
            == .malformedResponse(.handleOutOfOrder(.findInformationResponse, handle: 0x0001, expectedAtLeast: 0x0009)))
    }

    /// A random answer to `request`, mostly plausible so procedures get deep: an Error
    /// Response naming it now and then; otherwise its response with handles that mostly
    /// ascend from where the request starts (sometimes backwards, repeated or outside the
    /// range), declarations of allowed and disallowed lengths, echoes that are sometimes
    /// wrong, and values that are often a full ATT_MTU−1. `nil` when it would not decode.
    static func randomAnswer(_ request: ATTPDU, _ random: inout SplitMix64) -> ATTPDU? {
        func chance(_ n: Int) -> Bool { Int.random(in: 0..<n, using: &random) == 0 }
        func bytes(_ count: Int) -> [UInt8] { (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) } }
        func handle(after start: UInt16) -> UInt16 {
            if chance(20) { return .random(in: 0...0xFFFF, using: &random) }
            return start &+ .random(in: 0...3, using: &random)
        }
        /// `count` ascending handles from `start` (now and then one out of place).
        func handles(from start: UInt16, count: Int) -> [UInt16] {
            var out: [UInt16] = []
            var next = start
            for _ in 0..<count {
                let h = handle(after: next)
                out.append(h)
                next = h &+ .random(in: 1...4, using: &random)
            }
            return out
        }
        if chance(10) {
            let code = chance(2) ? ATTErrorCode.attributeNotFound
                : [.attributeNotLong, .invalidOffset, .readNotPermitted, .prepareQueueFull].randomElement(using: &random)!
            return .errorResponse(ErrorResponse(requestOpcode: request.opcode, handle: 0, errorCode: code))
        }
        let count = Int.random(in: 1...3, using: &random)
        switch request {
        case let .readByGroupTypeRequest(r):
            let length = chance(10) ? 4 : (chance(2) ? 2 : 16)
            let entries = handles(from: r.startingHandle, count: count).map { h in
                ReadByGroupTypeResponse.AttributeData(
                    attributeHandle: h, endGroupHandle: chance(20) ? h &- 1 : h &+ .random(in: 0...12, using: &random),
                    value: bytes(length)[...])
            }
            return (try? ReadByGroupTypeResponse(entries)).map(ATTPDU.readByGroupTypeResponse)
        case let .findByTypeValueRequest(r):
            let entries = handles(from: r.startingHandle, count: count).map { h in
                FindByTypeValueResponse.HandlesInformation(foundAttributeHandle: h, groupEndHandle: h &+ .random(in: 0...12, using: &random))
            }
            return (try? FindByTypeValueResponse(entries)).map(ATTPDU.findByTypeValueResponse)
        case let .readByTypeRequest(r):
            let found = handles(from: r.startingHandle, count: count)
            let entries: [ReadByTypeResponse.AttributeData]
            switch r.attributeType {
            case BluetoothUUID(0x2803):
                let wide = chance(2)
                entries = found.map { h in
                    var value: [UInt8] = [.random(in: 0...255, using: &random)]
                    value.append(littleEndian: chance(10) ? .random(in: 0...0xFFFF, using: &random) : h &+ 1)
                    value += bytes(chance(15) ? 3 : (wide ? 16 : 2))
                    return .init(handle: h, value: value[...])
                }
            case BluetoothUUID(0x2802):
                let short = chance(2)
                entries = found.map { h in
                    var value: [UInt8] = []
                    let start: UInt16 = chance(15) ? 0 : .random(in: 1...0xFFF0, using: &random)
                    value.append(littleEndian: start)
                    value.append(littleEndian: start &+ .random(in: 0...9, using: &random))
                    if !short { value += bytes(2) }
                    return .init(handle: h, value: value[...])
                }
            default:
                let length = chance(4) ? 16 : Int.random(in: 0...19, using: &random)
                entries = found.map { .init(handle: $0, value: bytes(length)[...]) }
            }
            return (try? ReadByTypeResponse(entries)).map(ATTPDU.readByTypeResponse)
        case let .findInformationRequest(r):
            let wide = chance(3)
            let entries = handles(from: r.startingHandle, count: count).map { h in
                FindInformationResponse.Information(
                    handle: h, uuid: wide ? BluetoothUUID(uuid128: .random(in: 0...UInt128.max, using: &random)) : BluetoothUUID(0x2902))
            }
            return (try? FindInformationResponse(entries)).map(ATTPDU.findInformationResponse)
        case .readRequest:
            return .readResponse(ReadResponse(value: bytes(chance(2) ? 22 : .random(in: 0...23, using: &random))[...]))
        case .readBlobRequest:
            return .readBlobResponse(ReadBlobResponse(value: bytes(chance(3) ? 22 : .random(in: 0...23, using: &random))[...]))
        case .readMultipleRequest:
            return .readMultipleResponse(ReadMultipleResponse(setOfValues: bytes(chance(2) ? 6 : .random(in: 0...22, using: &random))[...]))
        case .readMultipleVariableRequest:
            let tuples = (0..<Int.random(in: 1...4, using: &random)).map { _ in
                let present = Int.random(in: 0...8, using: &random)
                return ATTTupleList.Tuple(value: bytes(present)[...], declaredLength: present + (chance(3) ? 40 : 0))
            }
            return .readMultipleVariableResponse(ReadMultipleVariableResponse(tuples))
        case let .prepareWriteRequest(r):
            if chance(6) {
                return .prepareWriteResponse(PrepareWriteResponse(
                    handle: r.handle, valueOffset: r.valueOffset &+ (chance(2) ? 1 : 0), partAttributeValue: bytes(r.partAttributeValue.count)[...]))
            }
            return .prepareWriteResponse(PrepareWriteResponse(handle: r.handle, valueOffset: r.valueOffset, partAttributeValue: r.partAttributeValue))
        case .executeWriteRequest:
            return .executeWriteResponse(ExecuteWriteResponse())
        default:
            return nil
        }
    }

    @Test("random answers of the right kind: every procedure ends, within its bound", arguments: 0..<8)
    func fuzz(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        for _ in 0..<200 {
            func run<P: GATTProcedure>(_ procedure: P) {
                _ = Self.drive(procedure, limit: 140_000) { Self.randomAnswer($0, &random) }
            }
            run(GATTClient.DiscoverDatabase(mtu: 23))
            run(GATTClient.DiscoverPrimaryServices(uuid: BluetoothUUID(0x180D), mtu: 23))
            run(GATTClient.FindIncludedServices(range: 0x0001...0x0100, mtu: 23))
            run(GATTClient.DiscoverCharacteristics(range: 0x0001...0xFFFF, mtu: 23))
            run(GATTClient.ReadUsingCharacteristicUUID(uuid: BluetoothUUID(0x2A19), mtu: 23))
            run(GATTClient.ReadLongCharacteristicValues(handle: 3, mtu: 23))
            run(GATTClient.ReadMultipleCharacteristicValues([(1, 2), (2, 4)], mtu: 23))
            run(GATTClient.ReadMultipleVariableLengthCharacteristicValues(handles: [1, 2, 3], mtu: 23))
            run(GATTClient.WriteLongCharacteristicValues(handle: 3, value: Array(repeating: 1, count: 100), mtu: 23))
            run(GATTClient.ReliableWrites([.init(handle: 3, value: [1, 2, 3]), .init(handle: 5, value: Array(repeating: 2, count: 40))], mtu: 23))
            run(GATTClient.CheckDatabaseHash(cached: nil, mtu: 23))
        }
    }
}
