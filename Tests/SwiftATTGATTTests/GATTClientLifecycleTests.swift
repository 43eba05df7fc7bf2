import SwiftATTPDU
import SwiftATTCore
import SwiftATTGATT
import Testing

/// What the host sees around procedures: the bearer's timeouts and disconnections as
/// typed client errors, cancellation at every point, misuse, and error texts.
@Suite("GATT client: timeouts, disconnection, cancellation")
struct GATTClientLifecycleTests {
    typealias Fixture = GATTClientFixture

    @Test("a server that stops answering: the request times out, the bearer closes, later procedures fail")
    func timeout() throws {
        let fixture = try Fixture()
        var link = GATTClientTestLink(fixture.database)
        var blobs = 0
        link.tamper = { request, answer in
            guard request.opcode == .readBlobRequest else { return answer }
            blobs += 1
            return blobs < 3 ? answer : nil
        }
        let error = link.run(GATTClient.ReadLongCharacteristicValues(handle: fixture.valueHandle(fixture.long), mtu: 23)).gattError
        #expect(error == .timedOut)
        #expect(error?.description.contains("reconnect") == true)
        #expect(link.client.isClosed)
        #expect(link.run(GATTClient.DiscoverPrimaryServices(mtu: 23)).gattError == .timedOut, "the closed bearer refuses new requests")
    }

    @Test("a disconnect mid-procedure fails it with the reason", arguments: [1, 2, 5])
    func disconnect(at request: Int) throws {
        let fixture = try Fixture()
        var link = GATTClientTestLink(fixture.database)
        var discovery = GATTClient.DiscoverDatabase(mtu: 23)
        let error = link.run(&discovery, disconnectAt: request).gattError
        #expect(error == .disconnected(.remoteUserTerminated))
        #expect(error?.description.contains("Remote User Terminated") == true)
        #expect(link.requests.count == request)
        #expect(link.run(GATTClient.ReadCharacteristicValue(handle: 3, mtu: 23)).gattError == .disconnected(.remoteUserTerminated))
    }

    @Test("cancelling discovery or a long read: the answer in flight is taken, nothing more is sent", arguments: [1, 4, 9])
    func cancelReads(at request: Int) throws {
        let fixture = try Fixture()
        var link = GATTClientTestLink(fixture.database)
        var discovery = GATTClient.DiscoverDatabase(mtu: 23)
        #expect(link.run(&discovery, cancelAt: request).gattError == .cancelled)
        #expect(link.requests.count == request)
        #expect(discovery.cancel() == nil)

        var read = GATTClientTestLink(fixture.database)
        var long = GATTClient.ReadLongCharacteristicValues(handle: fixture.valueHandle(fixture.long), mtu: 23)
        #expect(read.run(&long, cancelAt: request).gattError == .cancelled)
        #expect(read.requests.count == request)
    }

    @Test("cancel before start, and the misuse of a finished procedure")
    func cancelAndMisuse() {
        var discovery = GATTClient.DiscoverDatabase(mtu: 23)
        #expect(discovery.cancel()?.failure == .cancelled)
        #expect(discovery.cancel() == nil)
        #expect(discovery.receive(.readResponse(ReadResponse(value: []))).failure == .unexpectedResponse(.readResponse, request: nil))

        var read = GATTClient.ReadCharacteristicValue(handle: 3, mtu: 23)
        #expect(read.start() == .request(.readRequest(ReadRequest(handle: 3))))
        guard case .failed(.notSupported) = read.start() else {
            Issue.record("a second start() is refused")
            return
        }
    }

    @Test("bearer errors become client errors", arguments: [
        (ATTBearerError.timedOut(opcode: .readRequest, after: .seconds(30)), GATTClientError.timedOut),
        (.bearerClosed, .timedOut),
        (.disconnected(reason: .connectionTimeout), .disconnected(.connectionTimeout)),
        (.malformedResponse(.invalidFormat(3)), .malformedResponse(.undecodable(.invalidFormat(3)))),
        (.queueFull(limit: 64), .bearer(.queueFull(limit: 64))),
        (.pduTooLong(length: 30, mtu: 23), .bearer(.pduTooLong(length: 30, mtu: 23))),
    ])
    func bearerErrors(bearer: ATTBearerError, client: GATTClientError) {
        #expect(GATTClientError(bearer) == client)
    }

    @Test("every error says what happened in words", arguments: [
        GATTClientError.attributeError(.insufficientEncryption, handle: 0x0012, request: .readRequest),
        .attributeError(ATTErrorCode(0x9A), handle: 0, request: .writeRequest),
        .unexpectedResponse(.writeResponse, request: .readRequest),
        .unexpectedResponse(.readResponse, request: nil),
        .malformedResponse(.handleOutOfOrder(.readByGroupTypeResponse, handle: 1, expectedAtLeast: 9)),
        .malformedResponse(.tooManyRoundTrips(limit: 5)),
        .valueTooLong(length: 30, maximum: 20),
        .tooManyHandles(count: 12, maximum: 11),
        .reliableWriteEchoMismatch(handle: 0x0011, offset: 18),
        .notSupported("why not"),
        .invalidHandleRange(0...5),
        .timedOut, .disconnected(.localHostTerminated), .cancelled, .bearer(.queueFull(limit: 1)),
    ])
    func descriptions(error: GATTClientError) {
        #expect(!error.description.isEmpty)
        #expect(!error.description.contains("GATTClientError"))
    }

    @Test("a declaration whose value ends the range finishes discovery without another request")
    func declarationAtTheEnd() throws {
        var discovery = GATTClient.DiscoverCharacteristics(range: 0x0010...0x0011, mtu: 23)
        #expect(discovery.start().request != nil)
        let declaration = ATTPDU.readByTypeResponse(try ReadByTypeResponse([.init(handle: 0x0010, value: [0x02, 0x11, 0x00, 0x38, 0x2A])]))
        #expect(discovery.receive(declaration) == .done([
            .init(uuid: BluetoothUUID(0x2A38), declarationHandle: 0x0010, valueHandle: 0x0011, endHandle: 0x0011, properties: [.read]),
        ]))
    }

    @Test("extreme caller input is refused, never trapped on")
    func extremeInput() {
        var far = GATTClient.WriteLongCharacteristicValues(handle: 3, value: Array(repeating: 1, count: 1000), offset: 65_000, mtu: 23)
        #expect(far.prepareWriteCount == 0)
        #expect(far.start().failure == .valueTooLong(length: 66_000, maximum: 512))
        var reliable = GATTClient.ReliableWrites([.init(handle: 3, value: [1]), .init(handle: 4, value: [2], offset: .max)], mtu: 23)
        #expect(reliable.start().failure == .valueTooLong(length: 65_536, maximum: 512))
        var huge = GATTClient.ReadMultipleCharacteristicValues([(1, .max), (2, .max)], mtu: 23)
        #expect(huge.start().failure == .valueTooLong(length: 1026, maximum: 22))
        var beyond = GATTClient.ReadLongCharacteristicValues(handle: 3, offset: .max, mtu: 23)
        #expect(beyond.start().request == .readBlobRequest(ReadBlobRequest(handle: 3, valueOffset: .max)))
        #expect(beyond.receive(.readBlobResponse(ReadBlobResponse(value: []))) == .done([]))
        var small = GATTClient.ReadCharacteristicValue(handle: 3, mtu: 0)
        #expect(small.mtu == 23, "ATT_MTU is never below 23")
        #expect(small.start().request != nil)
    }
}
