import SwiftATTCore
import SwiftATTCrypto
import SwiftATTSMP
import Testing
@testable import SwiftATTSecurity

/// A peer that breaks the protocol: every case ends in Pairing Failed with a typed
/// reason, and the session accepts nothing after.
@Suite("Pairing against a hostile peer")
struct PairingHostileInputTests {
    static let a = BluetoothAddress(0xC0_11_22_33_44_55, kind: .random)
    static let b = BluetoothAddress(0xC0_66_77_88_99_AA, kind: .random)
    let now = MonotonicInstant.now

    func responder(_ c: PairingConfiguration = PairingConfiguration()) -> PairingSession {
        PairingSession(role: .responder, configuration: c, initiatorAddress: Self.a, responderAddress: Self.b)
    }

    func initiator(_ c: PairingConfiguration = PairingConfiguration()) -> PairingSession {
        PairingSession(role: .initiator, configuration: c, initiatorAddress: Self.a, responderAddress: Self.b)
    }

    static func sentFailure(_ actions: [PairingAction]) -> PairingFailureReason? {
        for case let .failed(.sent(r)) in actions { return r }
        return nil
    }

    static let request = SMPPDU.pairingRequest(PairingFeatures()).bytes

    @Test("Every truncation and an over-long form of a Pairing Request: Invalid Parameters")
    func truncatedRequest() {
        for n in 1..<Self.request.count {
            var s = responder()
            #expect(Self.sentFailure(s.receive(Self.request[..<n], now: now)) == .invalidParameters, "\(n) octets")
            #expect(s.isFinished)
            // Nothing after the failure is answered.
            #expect(s.receive(Self.request[...], now: now).isEmpty)
        }
        var s = responder()
        #expect(Self.sentFailure(s.receive((Self.request + [0])[...], now: now)) == .invalidParameters)
    }

    @Test("A reserved code is ignored (Part H §3.3), and the pairing that follows goes on")
    func unknownCode() {
        for code: UInt8 in [0x00, 0x0F, 0x7F, 0xFF] {
            var s = responder()
            #expect(s.receive([code, 1, 2, 3][...], now: now).isEmpty)
            #expect(!s.isActive)
            let answer = s.receive(Self.request[...], now: now)
            #expect(Self.sentFailure(answer) == nil)
            #expect(s.isActive)
        }
    }

    @Test("Out of order: each PDU but the request, sent first, ends with Unspecified Reason")
    func outOfOrder() {
        let pdus: [SMPPDU] = [
            .pairingResponse(PairingFeatures()), .pairingConfirm(1), .pairingRandom(2), .pairingDHKeyCheck(3),
            .encryptionInformation(longTermKey: 4), .centralIdentification(ediv: 5, rand: 6),
            .identityInformation(identityResolvingKey: 7), .signingInformation(signatureKey: 8),
            .pairingPublicKey(x: [UInt8](repeating: 1, count: 32), y: [UInt8](repeating: 2, count: 32)),
        ]
        for pdu in pdus {
            var s = responder()
            #expect(Self.sentFailure(s.receive(pdu.bytes[...], now: now)) == .unspecifiedReason, "\(pdu.code)")
        }
        // And a second Pairing Request mid-pairing (a flood on one link).
        var s = responder()
        _ = s.receive(Self.request[...], now: now)
        #expect(s.isActive)
        #expect(Self.sentFailure(s.receive(Self.request[...], now: now)) == .unspecifiedReason)
    }

    /// A responder that has answered a Secure Connections request and waits for PKa.
    func responderAwaitingPublicKey() -> PairingSession {
        var s = responder()
        let actions = s.receive(Self.request[...], now: now)
        #expect(actions.contains { if case .send(.pairingResponse) = $0 { return true }; return false })
        return s
    }

    @Test("A public key off the curve, out of range, or at infinity: DHKey Check Failed")
    func invalidPublicKey() {
        let zero = [UInt8](repeating: 0, count: 32)
        let p256p: [UInt8] = [0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 1] + [UInt8](repeating: 0, count: 12) + [UInt8](repeating: 0xFF, count: 12)
        let debug = P256KeyPair.debug.publicKey
        var offCurveY = debug.y
        offCurveY[31] ^= 1
        for (x, y, name) in [(zero, zero, "infinity"), (debug.x, offCurveY, "off the curve"), (p256p, debug.y, "x = p")] {
            var s = responderAwaitingPublicKey()
            let actions = s.receive(SMPPDU.pairingPublicKey(x: x, y: y).bytes[...], now: now)
            #expect(Self.sentFailure(actions) == .dhKeyCheckFailed, "\(name)")
            // No public key of ours went out: nothing to attack with.
            #expect(!actions.contains { if case .send(.pairingPublicKey) = $0 { return true }; return false })
        }
    }

    @Test("Our own public key reflected back: Invalid Parameters")
    func reflectedKey() {
        var s = PairingSession(role: .responder, configuration: PairingConfiguration(),
                               initiatorAddress: Self.a, responderAddress: Self.b, keyPair: P256KeyPair.debug)
        _ = s.receive(Self.request[...], now: now)
        let key = P256KeyPair.debug.publicKey
        #expect(Self.sentFailure(s.receive(SMPPDU.pairingPublicKey(x: key.x, y: key.y).bytes[...], now: now))
                == .invalidParameters)
    }

    @Test("A confirm value that does not match its random: Confirm Value Failed")
    func mismatchedConfirm() {
        // A man in the middle alters the responder's Cb on its way to the initiator.
        var i = initiator()
        var out = i.start(now: now)
        var r = responder()
        func pump(_ from: [PairingAction], to target: inout PairingSession) -> [PairingAction] {
            var next: [PairingAction] = []
            for case let .send(pdu) in from { next += target.receive(pdu.bytes[...], now: now) }
            return next
        }
        out = pump(out, to: &r)        // Pairing Response
        out = pump(out, to: &i)        // PKa
        out = pump(out, to: &r)        // PKb, Cb
        // Tamper with Cb on its way to the initiator.
        let tampered: [PairingAction] = out.map {
            if case let .send(.pairingConfirm(c)) = $0 { return .send(.pairingConfirm(c ^ 1)) }
            return $0
        }
        out = pump(tampered, to: &i)   // Na
        out = pump(out, to: &r)        // Nb
        out = pump(out, to: &i)
        #expect(Self.sentFailure(out) == .confirmValueFailed)
    }

    @Test("Silence for 30 s ends the pairing without a PDU, and nothing is accepted after")
    func timeout() {
        var s = responder()
        _ = s.receive(Self.request[...], now: now)
        let deadline = try! #require(s.nextDeadline)
        #expect(deadline == now + .seconds(30))
        #expect(s.expire(now: deadline - .milliseconds(1)).isEmpty)
        #expect(s.expire(now: deadline) == [.failed(.timedOut)])
        #expect(s.nextDeadline == nil)
        #expect(s.receive(SMPPDU.pairingConfirm(1).bytes[...], now: now).isEmpty)
    }

    @Test("A peer's Pairing Failed ends the pairing with its reason, and is not answered")
    func peerFails() {
        for reason in PairingFailureReason.allCases {
            var s = responder()
            _ = s.receive(Self.request[...], now: now)
            #expect(s.receive(SMPPDU.pairingFailed(reason).bytes[...], now: now) == [.failed(.received(reason))])
        }
    }

    @Test("An encryption that fails ends the pairing")
    func encryptionFails() {
        var h = PairingHarness()
        var first = h.initiator.start(now: h.clock)
        // Run until the initiator asks for encryption, then report failure instead.
        var guardCount = 0
        while guardCount < 50 {
            guardCount += 1
            var toInitiator: [PairingAction] = []
            for case let .send(pdu) in first { toInitiator += h.responder.receive(pdu.bytes[...], now: h.clock) }
            var next: [PairingAction] = []
            for case let .send(pdu) in toInitiator { next += h.initiator.receive(pdu.bytes[...], now: h.clock) }
            if next.contains(where: { if case .startEncryption = $0 { return true }; return false }) { break }
            first = next
        }
        #expect(h.initiator.encryptionChanged(status: 0x06, now: h.clock) == [.failed(.encryptionFailed(status: 0x06))])
        #expect(h.initiator.isFinished)
    }

    @Test("Repeated attempts: failures the device detected double the wait, success forgets")
    func throttle() {
        var t = PairingAttemptThrottle(initialInterval: .seconds(2), maximumInterval: .seconds(8), capacity: 2)
        let peer = Self.a
        #expect(t.admits(peer, now: now))
        t.record(.sent(.confirmValueFailed), peer: peer, now: now)
        #expect(!t.admits(peer, now: now + .seconds(1)))
        #expect(t.admits(peer, now: now + .seconds(2)))
        t.record(.sent(.confirmValueFailed), peer: peer, now: now)
        #expect(!t.admits(peer, now: now + .seconds(3)))
        #expect(t.admits(peer, now: now + .seconds(4)))
        for _ in 0..<10 { t.record(.sent(.unspecifiedReason), peer: peer, now: now) }
        #expect(t.admits(peer, now: now + .seconds(8)))   // capped
        // A timeout, the peer's own report, or a declined request do not count.
        t.record(.timedOut, peer: Self.b, now: now)
        t.record(.received(.confirmValueFailed), peer: Self.b, now: now)
        t.record(.sent(.pairingNotSupported), peer: Self.b, now: now)
        #expect(t.admits(Self.b, now: now))
        t.recordSuccess(peer: peer)
        #expect(t.admits(peer, now: now))
        // Bounded: a third peer pushes out the entry that ends first.
        for i in 0..<5 { t.record(.sent(.invalidParameters), peer: BluetoothAddress(UInt64(i)), now: now + .seconds(i)) }
        #expect(t.entries.count == 2)
    }

    /// Found by the `smp` fuzz target (Fixtures/fuzz/smp/crash-*): a user who answers
    /// after the pairing ended — the peer sent Pairing Failed, or the SMP timer ran out —
    /// is answering nothing, and the session stays silent.
    @Test("A late passkey after the peer failed the pairing, or after the timeout, is ignored", arguments: [false, true])
    func lateAnswers(timedOut: Bool) {
        var s = responder(PairingConfiguration(ioCapability: .keyboardOnly, requiresMITM: true, secureConnections: .disabled))
        let request = SMPPDU.pairingRequest(PairingFeatures(ioCapability: .displayOnly, authenticationRequirements: [.bonding, .mitm]))
        let actions = s.receive(request.bytes[...], now: now)
        #expect(actions.contains { if case .requestPasskey = $0 { return true }; return false })
        if timedOut {
            #expect(s.expire(now: now + .seconds(31)) == [.failed(.timedOut)])
        } else {
            #expect(s.receive(SMPPDU.pairingFailed(.passkeyEntryFailed).bytes[...], now: now) == [.failed(.received(.passkeyEntryFailed))])
        }
        #expect(s.enterPasskey(123_456, now: now).isEmpty)
        #expect(s.confirm(true, now: now).isEmpty)
        #expect(s.nextDeadline == nil)
    }
}
