import SwiftATTCore
import SwiftATTPDU
import SwiftATTGATT
import Testing

/// Shared by the ATTBearer suites: a clock origin, a bearer with Int tokens, and PDUs.
enum ATTBearerFixture {
    typealias Bearer = ATTBearer
    typealias Action = ATTBearer.Action

    static let t0 = MonotonicInstant.now

    static func read(_ handle: UInt16) -> ATTPDU { .readRequest(ReadRequest(handle: handle)) }
    static func write(_ handle: UInt16, _ value: [UInt8]) -> ATTPDU {
        .writeRequest(WriteRequest(handle: handle, value: value[...]))
    }
    static func readResponse(_ value: [UInt8]) -> ATTPDU { .readResponse(ReadResponse(value: value[...])) }
    static func error(_ request: ATTOpcode, _ handle: UInt16, _ code: ATTErrorCode) -> ATTPDU {
        .errorResponse(ErrorResponse(requestOpcode: request, handle: handle, errorCode: code))
    }
    static func indication(_ handle: UInt16, _ value: [UInt8]) -> HandleValueIndication {
        HandleValueIndication(handle: handle, value: value[...])
    }

    /// The PDUs among the actions, in order.
    static func sent(_ actions: [Action]) -> [[UInt8]] {
        actions.compactMap { if case let .send(bytes) = $0 { return bytes } else { return nil } }
    }
}

/// The bearer as server and both roles of Exchange MTU (Core 5.4 Vol 3 Part F §3.2.8,
/// §3.4.1.1, §3.4.2), fed PDUs by hand with exact bytes.
@Suite struct ATTBearerTests {
    typealias F = ATTBearerFixture

    // MARK: Exchange MTU, peer as client

    @Test func peerExchangeIsAnsweredWithOurReceiveMTUThenApplied() {
        var bearer = F.Bearer(receiveMTU: 517)
        // Client Rx MTU 247; we answer 517 (0x0205); ATT_MTU = min = 247, after the response.
        #expect(bearer.receive([0x02, 0xF7, 0x00], now: F.t0) == [.send([0x03, 0x05, 0x02]), .mtuChanged(247)])
        #expect(bearer.mtu == 247)
    }

    @Test func ourSmallerReceiveMTUWins() {
        var bearer = F.Bearer(receiveMTU: 100)
        #expect(bearer.receive([0x02, 0x05, 0x02], now: F.t0) == [.send([0x03, 0x64, 0x00]), .mtuChanged(100)])
        #expect(bearer.mtu == 100)
    }

    /// §3.4.2.1: a Client Rx MTU below 23 leaves ATT_MTU at 23; the request is still answered.
    @Test(arguments: [UInt16(0), 1, 22, 23])
    func peerReceiveMTUAtOrBelowTheDefaultLeavesMTUAt23(_ clientRxMTU: UInt16) {
        var bearer = F.Bearer(receiveMTU: 517)
        let request: [UInt8] = [0x02, UInt8(clientRxMTU & 0xFF), UInt8(clientRxMTU >> 8)]
        #expect(bearer.receive(request, now: F.t0) == [.send([0x03, 0x05, 0x02])])
        #expect(bearer.mtu == 23)
    }

    /// A client may exchange once per connection (§3.4.2.1); a second request gets Request
    /// Not Supported, so the peer keeps the ATT_MTU both ends agreed first.
    @Test func secondPeerExchangeGetsRequestNotSupported() {
        var bearer = F.Bearer(receiveMTU: 517)
        _ = bearer.receive([0x02, 0xF7, 0x00], now: F.t0)
        #expect(bearer.receive([0x02, 0x00, 0x02], now: F.t0) == [.send([0x01, 0x02, 0x00, 0x00, 0x06])])
        #expect(bearer.mtu == 247)
    }

    @Test func peerExchangeIsNotHandedToTheHost() {
        var bearer = F.Bearer()
        let actions = bearer.receive([0x02, 0x17, 0x00], now: F.t0)
        #expect(!actions.contains { if case .serve = $0 { return true } else { return false } })
        // Nothing awaits the host's answer afterwards.
        #expect(throws: ATTBearerError.noRequestPending) { try bearer.respond(.exchangeMTUResponse(ExchangeMTUResponse(serverRxMTU: 23))) }
    }

    // MARK: Exchange MTU, this device as client

    @Test func ourExchangeSendsReceiveMTUAndAppliesTheAnswer() throws {
        var bearer = F.Bearer(receiveMTU: 517)
        #expect(try bearer.exchangeMTU(token: 1, now: F.t0) == [.send([0x02, 0x05, 0x02])])
        #expect(bearer.mtu == 23, "not before the response")
        let answer = ATTPDU.exchangeMTUResponse(ExchangeMTUResponse(serverRxMTU: 158))
        #expect(bearer.receive([0x03, 0x9E, 0x00], now: F.t0) == [.mtuChanged(158), .response(1, answer)])
        #expect(bearer.mtu == 158)
        #expect(throws: ATTBearerError.mtuAlreadyExchanged) { try bearer.exchangeMTU(token: 2, now: F.t0) }
    }

    @Test func serverRxMTUBelow23LeavesMTUAt23() throws {
        var bearer = F.Bearer(receiveMTU: 517)
        _ = try bearer.exchangeMTU(token: 1, now: F.t0)
        let answer = ATTPDU.exchangeMTUResponse(ExchangeMTUResponse(serverRxMTU: 0x10))
        #expect(bearer.receive([0x03, 0x10, 0x00], now: F.t0) == [.response(1, answer)])
        #expect(bearer.mtu == 23)
    }

    @Test func exchangeRefusedByThePeerKeepsTheDefaultAndCountsAsTheOne() throws {
        var bearer = F.Bearer(receiveMTU: 517)
        _ = try bearer.exchangeMTU(token: 1, now: F.t0)
        #expect(bearer.receive([0x01, 0x02, 0x00, 0x00, 0x06], now: F.t0)
            == [.response(1, F.error(.exchangeMTURequest, 0, .requestNotSupported))])
        #expect(bearer.mtu == 23)
        #expect(throws: ATTBearerError.mtuAlreadyExchanged) { try bearer.exchangeMTU(token: 2, now: F.t0) }
    }

    /// Each side may exchange once; ATT_MTU follows the peer's latest Rx MTU (capped by ours),
    /// which is what the peer computes too.
    @Test func bothDirectionsExchange() throws {
        var bearer = F.Bearer(receiveMTU: 517)
        _ = try bearer.exchangeMTU(token: 1, now: F.t0)
        _ = bearer.receive([0x03, 0xF7, 0x00], now: F.t0)
        #expect(bearer.mtu == 247)
        #expect(bearer.receive([0x02, 0xB9, 0x00], now: F.t0) == [.send([0x03, 0x05, 0x02]), .mtuChanged(185)])
        #expect(bearer.mtu == 185)
    }

    @Test func exchangeWaitsBehindAnOutstandingRequest() throws {
        var bearer = F.Bearer(receiveMTU: 517)
        _ = try bearer.request(F.read(1), token: 1, now: F.t0)
        #expect(try bearer.exchangeMTU(token: 2, now: F.t0) == [])
        #expect(bearer.receive([0x0B], now: F.t0) == [.response(1, F.readResponse([])), .send([0x02, 0x05, 0x02])])
        #expect(throws: ATTBearerError.reservedForBearer(.exchangeMTURequest)) {
            try bearer.request(.exchangeMTURequest(ExchangeMTURequest(clientRxMTU: 100)), token: 3, now: F.t0)
        }
    }

    @Test func receiveMTUIsClampedToWhatTheFieldHolds() {
        #expect(F.Bearer(receiveMTU: 5).receiveMTU == 23)
        #expect(F.Bearer(receiveMTU: 100_000).receiveMTU == 65535)
    }

    // MARK: Requests the bearer answers itself

    /// §3.4.1.1: a request that does not decode gets Invalid PDU naming it, handle 0x0000.
    @Test(arguments: [
        [0x0A, 0x01] as [UInt8],                             // Read Request cut to 2 bytes
        [0x0A, 0x01, 0x00, 0x00],                            // Read Request one byte long
        [0x02, 0x17],                                        // Exchange MTU Request cut short
        [0x08, 0x01, 0x00, 0xFF, 0xFF, 0x00],                // Read By Type, 1-byte UUID
        [0x18, 0x02],                                        // Execute Write, flags 0x02
        [0x04],                                              // Find Information, no handles
    ])
    func malformedRequestGetsInvalidPDU(_ pdu: [UInt8]) {
        var bearer = F.Bearer()
        #expect(bearer.receive(pdu, now: F.t0) == [.send([0x01, pdu[0], 0x00, 0x00, 0x04])])
        #expect(bearer.nextDeadline == nil, "answered: nothing left to serve")
    }

    /// §3.4.1.1, §3.3.1: an opcode Core 5.4 does not define, Command flag clear.
    @Test(arguments: [UInt8(0x3F), 0x14, 0x22, 0x8A, 0x00])
    func unknownRequestGetsRequestNotSupported(_ opcode: UInt8) {
        var bearer = F.Bearer()
        #expect(bearer.receive([opcode, 0x01, 0x00], now: F.t0) == [.send([0x01, opcode, 0x00, 0x00, 0x06])])
    }

    /// An unknown opcode with the Command flag set is ignored: nothing is sent.
    @Test(arguments: [UInt8(0x7F), 0x40, 0x53, 0xFF])
    func unknownCommandIsIgnored(_ opcode: UInt8) {
        var bearer = F.Bearer()
        #expect(bearer.receive([opcode, 0x01, 0x00], now: F.t0)
            == [.dropped(.malformedPDU(.unknownOpcode(ATTOpcode(opcode))))])
    }

    @Test func overlongWriteGetsInvalidAttributeValueLengthWithItsHandle() {
        var bearer = F.Bearer(receiveMTU: 600)
        _ = bearer.receive([0x02, 0x58, 0x02], now: F.t0)
        let write: [UInt8] = [0x12, 0x34, 0x12] + Array(repeating: 0xAA, count: 513)
        #expect(bearer.receive(write, now: F.t0) == [.send([0x01, 0x12, 0x34, 0x12, 0x0D])])
    }

    /// §3.2.8: a request longer than ATT_MTU (23 here: no exchange) gets Invalid PDU,
    /// and is not served; one of exactly ATT_MTU is.
    @Test func requestLongerThanATTMTUGetsInvalidPDU() {
        var bearer = F.Bearer()
        let write: [UInt8] = [0x12, 0x03, 0x00] + Array(repeating: 0xAA, count: 21)
        #expect(bearer.receive(write, now: F.t0) == [.send([0x01, 0x12, 0x00, 0x00, 0x04])])
        let fits = Array(write.dropLast())
        guard case .serve? = bearer.receive(fits, now: F.t0).first else { Issue.record("a 23-octet request was not served"); return }
    }

    @Test func commandLongerThanATTMTUIsDropped() {
        var bearer = F.Bearer()
        let command: [UInt8] = [0x52, 0x03, 0x00] + Array(repeating: 0xAA, count: 21)
        #expect(bearer.receive(command, now: F.t0) == [.dropped(.pduTooLong(length: 24, mtu: 23))])
    }

    @Test func emptyPDUIsDropped() {
        var bearer = F.Bearer()
        #expect(bearer.receive([], now: F.t0) == [.dropped(.malformedPDU(.empty))])
    }

    // MARK: Requests the host serves

    @Test func requestIsServedAndAnsweredOnce() throws {
        var bearer = F.Bearer()
        #expect(bearer.receive([0x0A, 0x03, 0x00], now: F.t0) == [.serve(F.read(3))])
        #expect(try bearer.respond(F.readResponse([0x01, 0x02])) == [.send([0x0B, 0x01, 0x02])])
        #expect(throws: ATTBearerError.noRequestPending) { try bearer.respond(F.readResponse([])) }
    }

    @Test func respondWithoutARequestIsRefused() {
        var bearer = F.Bearer()
        #expect(throws: ATTBearerError.noRequestPending) { try bearer.respond(.writeResponse(WriteResponse())) }
    }

    @Test func responseMustAnswerThePendingRequest() throws {
        var bearer = F.Bearer()
        _ = bearer.receive([0x0A, 0x03, 0x00], now: F.t0)
        #expect(throws: ATTBearerError.responseMismatch(request: .readRequest, response: .writeResponse)) {
            try bearer.respond(.writeResponse(WriteResponse()))
        }
        #expect(throws: ATTBearerError.responseMismatch(request: .readRequest, response: .errorResponse)) {
            try bearer.respond(F.error(.writeRequest, 3, .writeNotPermitted))
        }
        #expect(throws: ATTBearerError.responseMismatch(request: .readRequest, response: .handleValueNotification)) {
            try bearer.respond(.handleValueNotification(HandleValueNotification(handle: 3, value: [])))
        }
        #expect(try bearer.respond(F.error(.readRequest, 3, .readNotPermitted)) == [.send([0x01, 0x0A, 0x03, 0x00, 0x02])])
    }

    @Test func overlongResponseIsRefusedAndTheRequestStillAwaitsAnAnswer() throws {
        var bearer = F.Bearer()
        _ = bearer.receive([0x0A, 0x03, 0x00], now: F.t0)
        #expect(throws: ATTBearerError.pduTooLong(length: 24, mtu: 23)) {
            try bearer.respond(F.readResponse(Array(repeating: 0x55, count: 23)))
        }
        let truncated = Array(repeating: UInt8(0x55), count: 22)
        #expect(try bearer.respond(F.readResponse(truncated)) == [.send([0x0B] + truncated)])
    }

    /// §3.3.2: the peer must wait for our answer; a request sent earlier is dropped unanswered.
    @Test func requestBeforeOurAnswerIsDropped() throws {
        var bearer = F.Bearer()
        _ = bearer.receive([0x0A, 0x03, 0x00], now: F.t0)
        #expect(bearer.receive([0x0A, 0x04, 0x00], now: F.t0) == [.dropped(.requestBeforeResponse(.readRequest))])
        #expect(bearer.receive([0x3F], now: F.t0) == [.dropped(.requestBeforeResponse(ATTOpcode(0x3F)))])
        #expect(bearer.receive([0x02, 0x00, 0x01], now: F.t0) == [.dropped(.requestBeforeResponse(.exchangeMTURequest))])
        #expect(try bearer.respond(F.readResponse([0x07])) == [.send([0x0B, 0x07])])
        #expect(bearer.receive([0x0A, 0x04, 0x00], now: F.t0) == [.serve(F.read(4))])
    }

    /// Commands never wait and are never answered, even while a request is being served.
    @Test func commandsAreServedWithoutAnswer() throws {
        var bearer = F.Bearer()
        _ = bearer.receive([0x0A, 0x03, 0x00], now: F.t0)
        #expect(bearer.receive([0x52, 0x03, 0x00, 0xAA], now: F.t0)
            == [.serve(.writeCommand(WriteCommand(handle: 3, value: [0xAA])))])
        let signed: [UInt8] = [0xD2, 0x03, 0x00, 0xAA] + Array(0..<12)
        let expected = try SignedWriteCommand(handle: 3, value: [0xAA], authenticationSignature: Array(0..<12)[...])
        #expect(bearer.receive(signed, now: F.t0) == [.serve(.signedWriteCommand(expected))])
        // A malformed command is dropped, never answered.
        #expect(bearer.receive([0x52, 0x03], now: F.t0)
            == [.dropped(.malformedPDU(.truncated(.writeCommand, need: 3, have: 2)))])
        #expect(try bearer.respond(F.readResponse([])) == [.send([0x0B])])
    }

    /// §3.3.3: the server's transaction runs until the response is sent; a host that never
    /// answers closes the bearer after the timeout.
    @Test func unansweredPeerRequestClosesTheBearer() {
        var bearer = F.Bearer(transactionTimeout: .seconds(30))
        _ = bearer.receive([0x0A, 0x03, 0x00], now: F.t0)
        #expect(bearer.nextDeadline == F.t0 + .seconds(30))
        #expect(bearer.expire(now: F.t0 + .seconds(29)) == [])
        #expect(bearer.expire(now: F.t0 + .seconds(30)) == [.closed(.responseNotSent(request: .readRequest, after: .seconds(30)))])
        #expect(bearer.isClosed)
        #expect(throws: ATTBearerError.bearerClosed) { try bearer.respond(F.readResponse([])) }
        #expect(bearer.receive([0x0A, 0x03, 0x00], now: F.t0 + .seconds(31)) == [])
    }

    @Test func errorDescriptionsNameWhatToDo() {
        let timedOut = ATTBearerError.timedOut(opcode: .readRequest, after: .seconds(30))
        #expect(timedOut.description.contains("Read Request (0x0a)"))
        #expect(timedOut.description.contains("30 s"))
        #expect(ATTBearerError.pduTooLong(length: 30, mtu: 23).description.contains("at most 20 bytes"))
        let reason = ATTBearerError.DisconnectReason.remoteUserTerminated
        #expect(ATTBearerError.disconnected(reason: reason).description.contains("Remote User Terminated Connection (0x13)"))
    }
}
