import SwiftATTPDU
import SwiftATTGATT
import Testing

/// The bearer as client: one outstanding request (Core 5.4 Vol 3 Part F §3.3.2), response
/// matching (§3.4.9), the transaction timeout (§3.3.3), disconnection and ATT_MTU limits.
@Suite struct ATTBearerClientTests {
    typealias F = ATTBearerFixture

    @Test func oneOutstandingRequestTheRestQueueInOrder() throws {
        var bearer = F.Bearer()
        #expect(try bearer.request(F.read(1), token: 1, now: F.t0) == [.send([0x0A, 0x01, 0x00])])
        #expect(try bearer.request(F.read(2), token: 2, now: F.t0) == [])
        #expect(try bearer.request(F.write(3, [0xAB]), token: 3, now: F.t0) == [])
        #expect(bearer.receive([0x0B, 0x11], now: F.t0) == [.response(1, F.readResponse([0x11])), .send([0x0A, 0x02, 0x00])])
        #expect(bearer.receive([0x0B, 0x22], now: F.t0) == [.response(2, F.readResponse([0x22])), .send([0x12, 0x03, 0x00, 0xAB])])
        #expect(bearer.receive([0x13], now: F.t0) == [.response(3, .writeResponse(WriteResponse()))])
        #expect(bearer.nextDeadline == nil)
    }

    @Test func errorResponseNamingTheRequestCompletesIt() throws {
        var bearer = F.Bearer()
        _ = try bearer.request(F.read(1), token: 7, now: F.t0)
        _ = try bearer.request(F.read(2), token: 8, now: F.t0)
        #expect(bearer.receive([0x01, 0x0A, 0x01, 0x00, 0x02], now: F.t0)
            == [.response(7, F.error(.readRequest, 1, .readNotPermitted)), .send([0x0A, 0x02, 0x00])])
    }

    /// An answer that is not for the outstanding request is dropped; the real one still matches.
    @Test func responsesForAnotherRequestAreDropped() throws {
        var bearer = F.Bearer()
        _ = try bearer.request(F.read(1), token: 1, now: F.t0)
        #expect(bearer.receive([0x01, 0x12, 0x01, 0x00, 0x03], now: F.t0) == [.dropped(.unexpectedResponse(.errorResponse))])
        #expect(bearer.receive([0x13], now: F.t0) == [.dropped(.unexpectedResponse(.writeResponse))])
        #expect(bearer.receive([0x05, 0x01, 0x01, 0x00, 0x00, 0x28], now: F.t0) == [.dropped(.unexpectedResponse(.findInformationResponse))])
        #expect(bearer.nextDeadline == F.t0 + .seconds(30), "still outstanding")
        #expect(bearer.receive([0x0B, 0x01], now: F.t0) == [.response(1, F.readResponse([0x01]))])
    }

    @Test func responseWithNothingOutstandingIsDropped() {
        var bearer = F.Bearer()
        #expect(bearer.receive([0x0B, 0x01], now: F.t0) == [.dropped(.unexpectedResponse(.readResponse))])
        #expect(bearer.receive([0x01, 0x0A, 0x01, 0x00, 0x0A], now: F.t0) == [.dropped(.unexpectedResponse(.errorResponse))])
        #expect(bearer.receive([0x03, 0x00, 0x02], now: F.t0) == [.dropped(.unexpectedResponse(.exchangeMTUResponse))])
        #expect(bearer.mtu == 23, "an unsolicited Exchange MTU Response changes nothing")
    }

    /// The right response opcode that does not decode fails the request; the next one goes.
    @Test func malformedAnswerFailsTheRequest() throws {
        var bearer = F.Bearer()
        _ = try bearer.request(.findInformationRequest(FindInformationRequest(startingHandle: 1, endingHandle: 0xFFFF)), token: 1, now: F.t0)
        _ = try bearer.request(F.read(2), token: 2, now: F.t0)
        _ = try bearer.request(F.read(3), token: 3, now: F.t0)
        #expect(bearer.receive([0x05, 0x03, 0x01, 0x00], now: F.t0)
            == [.requestFailed(1, .malformedResponse(.invalidFormat(3))), .send([0x0A, 0x02, 0x00])])
        // An Error Response too short to name a request answers the outstanding one.
        #expect(bearer.receive([0x01, 0x0A], now: F.t0)
            == [.requestFailed(2, .malformedResponse(.truncated(.errorResponse, need: 5, have: 2))), .send([0x0A, 0x03, 0x00])])
    }

    /// §3.3.3: the request fails, the bearer closes, queued work fails with bearerClosed.
    @Test func timeoutClosesTheBearerAndFailsEverything() throws {
        var bearer = F.Bearer(transactionTimeout: .seconds(30))
        _ = try bearer.request(F.read(1), token: 1, now: F.t0)
        _ = try bearer.request(F.read(2), token: 2, now: F.t0 + .seconds(1))
        _ = try bearer.request(F.read(3), token: 3, now: F.t0 + .seconds(2))
        _ = try bearer.indicate(F.indication(5, [0x01]), token: 10, now: F.t0 + .seconds(3))
        _ = try bearer.indicate(F.indication(5, [0x02]), token: 11, now: F.t0 + .seconds(3))
        #expect(bearer.nextDeadline == F.t0 + .seconds(30))
        #expect(bearer.expire(now: F.t0 + .seconds(30) - .milliseconds(1)) == [])
        let timedOut = ATTBearerError.timedOut(opcode: .readRequest, after: .seconds(30))
        #expect(bearer.expire(now: F.t0 + .seconds(30)) == [
            .requestFailed(1, timedOut),
            .requestFailed(2, .bearerClosed), .requestFailed(3, .bearerClosed),
            .indicationFailed(10, .bearerClosed), .indicationFailed(11, .bearerClosed),
            .closed(timedOut),
        ])
        #expect(bearer.isClosed)
        #expect(bearer.nextDeadline == nil)
        #expect(bearer.expire(now: F.t0 + .seconds(60)) == [])
        // No more PDUs on this bearer, in or out.
        #expect(throws: ATTBearerError.bearerClosed) { try bearer.request(F.read(1), token: 4, now: F.t0) }
        #expect(throws: ATTBearerError.bearerClosed) { try bearer.send(.writeCommand(WriteCommand(handle: 1, value: []))) }
        #expect(throws: ATTBearerError.bearerClosed) { try bearer.indicate(F.indication(5, []), token: 12, now: F.t0) }
        #expect(throws: ATTBearerError.bearerClosed) { try bearer.exchangeMTU(token: 13, now: F.t0) }
        #expect(bearer.receive([0x0B, 0x01], now: F.t0) == [])
        #expect(bearer.receive([0x1D, 0x05, 0x00], now: F.t0) == [], "not even a confirmation")
        #expect(bearer.receive([0x0A, 0x01, 0x00], now: F.t0) == [], "nor an answer")
    }

    /// Each request's deadline runs from when it is sent, not when it was queued.
    @Test func deadlineStartsWhenTheRequestIsSent() throws {
        var bearer = F.Bearer(transactionTimeout: .milliseconds(100))
        _ = try bearer.request(F.read(1), token: 1, now: F.t0)
        _ = try bearer.request(F.read(2), token: 2, now: F.t0)
        _ = bearer.receive([0x0B], now: F.t0 + .milliseconds(90))
        #expect(bearer.nextDeadline == F.t0 + .milliseconds(190))
        #expect(bearer.expire(now: F.t0 + .milliseconds(150)) == [])
        let timedOut = ATTBearerError.timedOut(opcode: .readRequest, after: .milliseconds(100))
        #expect(bearer.expire(now: F.t0 + .milliseconds(190)) == [.requestFailed(2, timedOut), .closed(timedOut)])
    }

    @Test func disconnectionFailsEverythingWithItsReason() throws {
        var bearer = F.Bearer()
        _ = try bearer.request(F.read(1), token: 1, now: F.t0)
        _ = try bearer.request(F.read(2), token: 2, now: F.t0)
        _ = try bearer.indicate(F.indication(5, [0x01]), token: 3, now: F.t0)
        _ = try bearer.indicate(F.indication(5, [0x02]), token: 4, now: F.t0)
        _ = bearer.receive([0x0A, 0x01, 0x00], now: F.t0)    // a peer request being served
        let lost = ATTBearerError.disconnected(reason: .connectionTimeout)
        #expect(bearer.close(reason: .connectionTimeout) == [
            .requestFailed(1, lost), .requestFailed(2, lost),
            .indicationFailed(3, lost), .indicationFailed(4, lost),
        ])
        #expect(bearer.isClosed)
        #expect(bearer.nextDeadline == nil)
        #expect(bearer.expire(now: F.t0 + .seconds(60)) == [])
        #expect(throws: lost) { try bearer.request(F.read(1), token: 5, now: F.t0) }
        #expect(throws: lost) { try bearer.respond(F.readResponse([])) }
        #expect(bearer.close(reason: .remoteUserTerminated) == [])
    }

    @Test func disconnectionAfterATimeoutReportsTheDisconnection() throws {
        var bearer = F.Bearer(transactionTimeout: .seconds(1))
        _ = try bearer.request(F.read(1), token: 1, now: F.t0)
        _ = bearer.expire(now: F.t0 + .seconds(1))
        let reason = ATTBearerError.DisconnectReason(code: 0x16, name: "Connection Terminated By Local Host")
        #expect(bearer.close(reason: reason) == [])
        #expect(throws: ATTBearerError.disconnected(reason: .localHostTerminated)) {
            try bearer.request(F.read(1), token: 2, now: F.t0)
        }
    }

    /// §3.2.8: nothing longer than ATT_MTU goes out; the caller truncates or splits.
    @Test func pdusLongerThanMTUAreRefused() throws {
        var bearer = F.Bearer(receiveMTU: 517)
        let fits = Array(repeating: UInt8(0x33), count: 20), over = fits + [0x33]
        #expect(throws: ATTBearerError.pduTooLong(length: 24, mtu: 23)) { try bearer.request(F.write(1, over), token: 1, now: F.t0) }
        #expect(throws: ATTBearerError.pduTooLong(length: 24, mtu: 23)) {
            try bearer.send(.handleValueNotification(HandleValueNotification(handle: 1, value: over[...])))
        }
        #expect(throws: ATTBearerError.pduTooLong(length: 24, mtu: 23)) {
            try bearer.send(.writeCommand(WriteCommand(handle: 1, value: over[...])))
        }
        #expect(throws: ATTBearerError.pduTooLong(length: 24, mtu: 23)) { try bearer.indicate(F.indication(1, over), token: 2, now: F.t0) }
        #expect(bearer.nextDeadline == nil, "nothing was queued")
        #expect(try bearer.request(F.write(1, fits), token: 3, now: F.t0) == [.send([0x12, 0x01, 0x00] + fits)])
        _ = bearer.receive([0x13], now: F.t0)
        _ = bearer.receive([0x02, 0x64, 0x00], now: F.t0)    // the peer exchanges: ATT_MTU 100
        #expect(try bearer.request(F.write(1, over), token: 4, now: F.t0) == [.send([0x12, 0x01, 0x00] + over)])
    }

    /// A queued request checked against a larger ATT_MTU is checked again when it is sent.
    @Test func queuedRequestTooLongForAShrunkenMTUFails() throws {
        var bearer = F.Bearer(receiveMTU: 517)
        _ = bearer.receive([0x02, 0xF7, 0x00], now: F.t0)      // ATT_MTU 247
        _ = try bearer.exchangeMTU(token: 1, now: F.t0)
        let long = Array(repeating: UInt8(0x44), count: 100)
        _ = try bearer.request(F.write(1, long), token: 2, now: F.t0)
        _ = try bearer.request(F.read(1), token: 3, now: F.t0)
        // The peer's Server Rx MTU turns out to be 50.
        #expect(bearer.receive([0x03, 0x32, 0x00], now: F.t0) == [
            .mtuChanged(50),
            .response(1, .exchangeMTUResponse(ExchangeMTUResponse(serverRxMTU: 50))),
            .requestFailed(2, .pduTooLong(length: 103, mtu: 50)),
            .send([0x0A, 0x01, 0x00]),
        ])
    }

    @Test func queueIsBounded() throws {
        var bearer = F.Bearer(queueLimit: 2)
        _ = try bearer.request(F.read(1), token: 1, now: F.t0)
        _ = try bearer.request(F.read(2), token: 2, now: F.t0)
        _ = try bearer.request(F.read(3), token: 3, now: F.t0)
        #expect(throws: ATTBearerError.queueFull(limit: 2)) { try bearer.request(F.read(4), token: 4, now: F.t0) }
        _ = try bearer.indicate(F.indication(1, []), token: 5, now: F.t0)
        _ = try bearer.indicate(F.indication(1, []), token: 6, now: F.t0)
        _ = try bearer.indicate(F.indication(1, []), token: 7, now: F.t0)
        #expect(throws: ATTBearerError.queueFull(limit: 2)) { try bearer.indicate(F.indication(1, []), token: 8, now: F.t0) }
    }

    @Test func eachOperationTakesItsOwnKindOfPDU() {
        var bearer = F.Bearer()
        #expect(throws: ATTBearerError.notARequest(.readResponse)) { try bearer.request(F.readResponse([]), token: 1, now: F.t0) }
        #expect(throws: ATTBearerError.notARequest(.writeCommand)) {
            try bearer.request(.writeCommand(WriteCommand(handle: 1, value: [])), token: 1, now: F.t0)
        }
        #expect(throws: ATTBearerError.notACommandOrNotification(.readRequest)) { try bearer.send(F.read(1)) }
        #expect(throws: ATTBearerError.notACommandOrNotification(.handleValueIndication)) {
            try bearer.send(.handleValueIndication(F.indication(1, [])))
        }
        #expect(throws: ATTBearerError.reservedForBearer(.handleValueConfirmation)) {
            try bearer.send(.handleValueConfirmation(HandleValueConfirmation()))
        }
    }

    /// Commands and notifications go out at once, whatever is outstanding.
    @Test func commandsAndNotificationsNeverWait() throws {
        var bearer = F.Bearer()
        _ = try bearer.request(F.read(1), token: 1, now: F.t0)
        _ = try bearer.indicate(F.indication(2, [0x01]), token: 2, now: F.t0)
        #expect(try bearer.send(.writeCommand(WriteCommand(handle: 3, value: [0x09]))) == [.send([0x52, 0x03, 0x00, 0x09])])
        #expect(try bearer.send(.handleValueNotification(HandleValueNotification(handle: 4, value: [0x08]))) == [.send([0x1B, 0x04, 0x00, 0x08])])
        let multiple = MultipleHandleValueNotification([.init(handle: 4, value: [0x01]), .init(handle: 5, value: [0x02, 0x03])])
        #expect(try bearer.send(.multipleHandleValueNotification(multiple))
            == [.send([0x23, 0x04, 0x00, 0x01, 0x00, 0x01, 0x05, 0x00, 0x02, 0x00, 0x02, 0x03])])
    }
}
