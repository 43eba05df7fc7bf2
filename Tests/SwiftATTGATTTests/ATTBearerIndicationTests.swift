import SwiftATTPDU
import SwiftATTGATT
import Testing

/// Server-initiated PDUs in both directions (Core 5.4 Vol 3 Part F §3.4.7): our
/// indications one at a time, the peer's confirmed automatically, notifications handed up.
@Suite struct ATTBearerIndicationTests {
    typealias F = ATTBearerFixture

    @Test func ourIndicationsGoOneAtATime() throws {
        var bearer = F.Bearer()
        #expect(try bearer.indicate(F.indication(3, [0xAA]), token: 1, now: F.t0) == [.send([0x1D, 0x03, 0x00, 0xAA])])
        #expect(try bearer.indicate(F.indication(4, [0xBB, 0xCC]), token: 2, now: F.t0) == [])
        #expect(bearer.receive([0x1E], now: F.t0) == [.indicationConfirmed(1), .send([0x1D, 0x04, 0x00, 0xBB, 0xCC])])
        #expect(bearer.receive([0x1E], now: F.t0) == [.indicationConfirmed(2)])
        #expect(bearer.nextDeadline == nil)
    }

    @Test func confirmationWithNothingOutstandingIsDropped() {
        var bearer = F.Bearer()
        #expect(bearer.receive([0x1E], now: F.t0) == [.dropped(.unexpectedResponse(.handleValueConfirmation))])
    }

    @Test func malformedConfirmationFailsTheIndication() throws {
        var bearer = F.Bearer()
        _ = try bearer.indicate(F.indication(3, []), token: 1, now: F.t0)
        _ = try bearer.indicate(F.indication(4, []), token: 2, now: F.t0)
        #expect(bearer.receive([0x1E, 0x00], now: F.t0) == [
            .indicationFailed(1, .malformedResponse(.invalidLength(.handleValueConfirmation, expected: 1, have: 2))),
            .send([0x1D, 0x04, 0x00]),
        ])
    }

    /// Requests and indications are separate transactions: each has its own outstanding slot.
    @Test func indicationsDoNotWaitForRequests() throws {
        var bearer = F.Bearer()
        _ = try bearer.request(F.read(1), token: 1, now: F.t0)
        #expect(try bearer.indicate(F.indication(3, [0x01]), token: 2, now: F.t0) == [.send([0x1D, 0x03, 0x00, 0x01])])
        #expect(bearer.receive([0x1E], now: F.t0) == [.indicationConfirmed(2)])
        #expect(bearer.receive([0x0B], now: F.t0) == [.response(1, F.readResponse([]))])
    }

    @Test func unconfirmedIndicationTimesOutAndClosesTheBearer() throws {
        var bearer = F.Bearer(transactionTimeout: .seconds(30))
        _ = try bearer.indicate(F.indication(3, []), token: 1, now: F.t0)
        _ = try bearer.indicate(F.indication(3, []), token: 2, now: F.t0)
        _ = try bearer.request(F.read(1), token: 3, now: F.t0 + .seconds(10))
        #expect(bearer.nextDeadline == F.t0 + .seconds(30))
        let timedOut = ATTBearerError.timedOut(opcode: .handleValueIndication, after: .seconds(30))
        #expect(bearer.expire(now: F.t0 + .seconds(30)) == [
            .indicationFailed(1, timedOut),
            .requestFailed(3, .bearerClosed),
            .indicationFailed(2, .bearerClosed),
            .closed(timedOut),
        ])
        #expect(timedOut.description.contains("confirm our Handle Value Indication"))
    }

    // MARK: The peer's indications and notifications

    /// §3.4.7.3: the bearer confirms each indication right after handing it up, so a second
    /// indication always finds the first confirmed.
    @Test func peerIndicationsAreConfirmedAutomatically() {
        var bearer = F.Bearer()
        let pdu: [UInt8] = [0x1D, 0x05, 0x00, 0x01, 0x02]
        #expect(bearer.receive(pdu, now: F.t0) == [.indication(handle: 5, value: [0x01, 0x02]), .send([0x1E])])
        #expect(bearer.receive([0x1D, 0x06, 0x00], now: F.t0) == [.indication(handle: 6, value: []), .send([0x1E])])
        #expect(bearer.nextDeadline == nil, "confirming leaves nothing pending")
    }

    /// An indication that does not decode still ends its transaction with a confirmation.
    @Test func malformedPeerIndicationIsConfirmedAndDropped() {
        var bearer = F.Bearer()
        #expect(bearer.receive([0x1D, 0x05], now: F.t0)
            == [.dropped(.malformedPDU(.truncated(.handleValueIndication, need: 3, have: 2))), .send([0x1E])])
    }

    /// Values handed up are views into the inbound PDU.
    @Test func valuesAreSlicesOfTheInboundPDU() {
        var bearer = F.Bearer()
        let inbound: [UInt8] = [0xFF, 0x1B, 0x07, 0x00, 0x10, 0x20]
        let actions = bearer.receive(inbound[1...], now: F.t0)
        guard case let .notification(handle, value)? = actions.first else {
            Issue.record("expected a notification, got \(actions)")
            return
        }
        #expect(handle == 7)
        #expect(value == [0x10, 0x20])
        #expect(value.startIndex == 4, "indices are the inbound array's")
    }

    @Test func notificationsAreHandedUpOnePerHandle() {
        var bearer = F.Bearer()
        #expect(bearer.receive([0x1B, 0x05, 0x00, 0xAA], now: F.t0) == [.notification(handle: 5, value: [0xAA])])
        let multiple: [UInt8] = [0x23, 0x05, 0x00, 0x01, 0x00, 0xAA, 0x06, 0x00, 0x02, 0x00, 0xBB, 0xCC]
        #expect(bearer.receive(multiple, now: F.t0)
            == [.notification(handle: 5, value: [0xAA]), .notification(handle: 6, value: [0xBB, 0xCC])])
    }

    @Test func malformedNotificationsAreDropped() {
        var bearer = F.Bearer()
        #expect(bearer.receive([0x1B, 0x05], now: F.t0)
            == [.dropped(.malformedPDU(.truncated(.handleValueNotification, need: 3, have: 2)))])
        // Multiple Handle Value Notification needs two tuples.
        #expect(bearer.receive([0x23, 0x05, 0x00, 0x01, 0x00, 0xAA], now: F.t0)
            == [.dropped(.malformedPDU(.tooFewEntries(.multipleHandleValueNotification, count: 1, minimum: 2)))])
    }
}
