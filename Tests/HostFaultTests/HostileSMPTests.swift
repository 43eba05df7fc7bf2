import Foundation
import SwiftATTCore
import SwiftATTHost
import SwiftATTL2CAP
import Testing
import TestSupport

/// A hostile central against the swift-att peripheral's Security Manager, end to end:
/// raw SMP PDUs (L2CAP channel 0x0006) from a `RawPeer` on the loopback link. Each ends
/// in the Pairing Failed the spec names, the peripheral never pairs, and the link goes on
/// serving GATT. `SwiftATTSecurityTests` cover every PDU one state at a time.
@Suite struct HostileSMPTests {
    /// A Pairing Request: NoInputNoOutput, no OOB, bonding + Secure Connections, 16
    /// octets, every key both ways.
    static let pairingRequest: [UInt8] = [0x01, 0x03, 0x00, 0x09, 0x10, 0x07, 0x07]

    static func send(_ pdu: [UInt8], to target: HostileCentralTarget) throws {
        try target.raw.sendACL(RawPeer.frame(channel: L2CAPChannelIdentifier.securityManager, length: pdu.count) + pdu)
    }

    static func nextSMP(_ target: HostileCentralTarget, _ what: String) async throws -> [UInt8] {
        try await target.raw.next(what) { inbound in
            if case let .frame(frame) = inbound, frame.channel == L2CAPChannelIdentifier.securityManager { return Array(frame.payload) }
            return nil
        }
    }

    @Test func aFloodOfPairingRequestsMeetsRepeatedAttemptsAndTheLinkGoesOn() async throws {
        let target = try await HostileCentralTarget.start()
        let events = target.peripheral.controller.securityEvents()
        try Self.send(Self.pairingRequest, to: target)
        #expect(try await Self.nextSMP(target, "the Pairing Response").first == 0x02)
        // A second request in the middle of the pairing is out of order: Unspecified Reason.
        try Self.send(Self.pairingRequest, to: target)
        #expect(try await Self.nextSMP(target, "Pairing Failed") == [0x05, 0x08])
        // From then on the peer waits, 2 s after the first failure and twice as long after
        // each further one (Part H §2.3.6): a request inside the wait gets Repeated
        // Attempts. One admitted after a wait starts a pairing, which the next request
        // (out of order) fails again. However slow the machine, the attempts admitted
        // grow with the logarithm of the time the flood took, not with its size.
        let started = ContinuousClock.now
        var admitted = 0
        for n in 0..<200 {
            try Self.send(Self.pairingRequest, to: target)
            let answer = try await Self.nextSMP(target, "the answer to request \(n)")
            if answer.first == 0x02 {
                admitted += 1
                try Self.send(Self.pairingRequest, to: target)
                #expect(try await Self.nextSMP(target, "the end of admitted attempt \(admitted)") == [0x05, 0x08])
            } else {
                #expect(answer == [0x05, 0x09], "request \(n)")
            }
        }
        let seconds = Double((ContinuousClock.now - started).components.seconds) + 1
        #expect(Double(admitted) <= (log2(seconds / 2 + 1) + 1).rounded(.up), "\(admitted) attempts admitted in \(seconds) s")
        // A reserved code is ignored (Part H §3.3), a truncated request is not a pairing.
        try Self.send([0x7F, 0x00], to: target)
        try await target.expectLinkWorks()
        // The first security event is that failure, and the link never got a level.
        var seen: [SecurityEvent.Change] = []
        for await event in events {
            seen.append(event.change)
            break
        }
        #expect(seen == [.pairingFailed(.sent(.unspecifiedReason))])
        #expect(await target.peripheral.securityLevel(of: target.connection) == .none)
        await target.stop()
    }

    /// What the Security Manager answers to a first PDU that is malformed or out of
    /// place, and then to a proper Pairing Request: a truncated or over-long request is a
    /// failed attempt (Invalid Parameters, then Repeated Attempts); anything that is not a
    /// request is ignored outside a pairing, and the request that follows pairs.
    @Test(arguments: [
        ([UInt8](), [0x02]),
        ([0x01], [0x05, 0x0A, 0x05, 0x09]),
        ([0x01, 0x03, 0x00, 0x09, 0x10, 0x07], [0x05, 0x0A, 0x05, 0x09]),
        ([0x01, 0x03, 0x00, 0x09, 0x10, 0x07, 0x07, 0x00], [0x05, 0x0A, 0x05, 0x09]),
        ([0x03] + [UInt8](repeating: 0, count: 16), [0x02]),
        ([0x0C] + [UInt8](repeating: 0, count: 64), [0x02]),
        ([0x7F, 0x01], [0x02]),
    ] as [([UInt8], [UInt8])])
    func aMalformedOrUnexpectedFirstPDU(pdu: [UInt8], answers: [UInt8]) async throws {
        let target = try await HostileCentralTarget.start()
        try Self.send(pdu, to: target)
        try Self.send(Self.pairingRequest, to: target)
        var received: [UInt8] = []
        while received.count < answers.count {
            let frame = try await Self.nextSMP(target, "the answers (\(received) so far)")
            // A Pairing Response is recognised by its code; failures by code and reason.
            received += frame.first == 0x02 ? [0x02] : frame
        }
        #expect(received == answers)
        try await target.expectLinkWorks()
        #expect(await target.peripheral.securityLevel(of: target.connection) == .none)
        await target.stop()
    }
}
