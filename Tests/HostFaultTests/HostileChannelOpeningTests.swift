import SwiftATTCore
@testable import SwiftATTHost
import SwiftATTL2CAP
import Testing
import TestSupport

/// A swift-att central opening Enhanced Credit Based channels to a raw peripheral that
/// answers "pending" first (Core 5.4 Vol 3 Part A §4.26, results 0x000D–0x000F): the
/// request keeps waiting for the final answer, under the extended response timeout
/// (ERTX, §6.2.2), and the final answer opens the channels.
@Suite struct HostileChannelOpeningTests {
    static let psm: SPSM = 0x0081
    /// The raw peripheral's ends of the channels it accepts.
    static let rawCIDs: [UInt16] = [0x0050, 0x0051]
    static let parameters = L2CAPChannelParameters(mtu: 100, mps: 100, credits: 10)

    /// The next Credit Based Connection Request the central sends, with its identifier.
    static func nextRequest(_ raw: RawPeer) async throws -> (identifier: UInt8, request: CreditBasedConnectionRequest) {
        try await raw.next("the Credit Based Connection Request") { inbound -> (UInt8, CreditBasedConnectionRequest)? in
            guard case let .frame(frame) = inbound, frame.channel == L2CAPChannelIdentifier.leSignaling,
                  let signal = try? LESignalingFrame(parsing: frame.payload),
                  case let .creditBasedConnectionRequest(request) = signal.command else { return nil }
            return (signal.identifier, request)
        }
    }

    /// Answers the request `identifier` from the raw peripheral.
    static func answer(_ raw: RawPeer, _ response: CreditBasedConnectionResponse, identifier: UInt8) throws {
        let bytes = LESignalingCommand.creditBasedConnectionResponse(response).packet(identifier: identifier).encoded()
        try raw.sendACL(RawPeer.frame(channel: L2CAPChannelIdentifier.leSignaling, length: bytes.count) + bytes)
    }

    /// The central's signaling timeouts, shortened so that a test can wait them out.
    static func shortenTimeouts(of central: Central, response: Duration, extended: Duration) async {
        await central.controller.perform { stack in
            stack.l2cap.creditBased.responseTimeout = response
            stack.l2cap.creditBased.extendedResponseTimeout = extended
        }
    }

    @Test func aPendingAnswerWaitsForTheFinalOneWhichOpensTheChannels() async throws {
        let target = try await HostilePeripheralTarget.start()
        let raw = target.raw
        let peer = target.peer
        let opening = Task { try await peer.openChannels(psm: Self.psm, count: 2, parameters: Self.parameters) }
        let (identifier, request) = try await Self.nextRequest(raw)
        #expect(request.spsm == Self.psm && request.sourceCIDs.count == 2)
        // Two pending answers (all-zero CIDs, as the spec has them), then success.
        try Self.answer(raw, .refused(.pendingAuthentication, count: 2), identifier: identifier)
        try Self.answer(raw, .refused(.pendingNoFurtherInformation, count: 2), identifier: identifier)
        try Self.answer(raw, CreditBasedConnectionResponse(mtu: 120, mps: 70, initialCredits: 5, result: .success,
                                                           destinationCIDs: Self.rawCIDs), identifier: identifier)
        let channels = try await opening.value
        try #require(channels.count == 2)
        #expect(channels.map(\.localCID) == request.sourceCIDs)
        #expect(channels.map(\.peerCID) == Self.rawCIDs)
        #expect(channels.allSatisfy { $0.peerMTU == 120 && $0.peerMPS == 70 && $0.peerInitialCredits == 5 })

        // Both channels carry data: the central sends on the second, the raw peer on the first.
        try await channels[1].send([1, 2, 3])
        let frame = try await raw.next("the K-frame on the second channel") { inbound -> [UInt8]? in
            guard case let .frame(frame) = inbound, frame.channel == Self.rawCIDs[1] else { return nil }
            return Array(frame.payload)
        }
        #expect(frame == le(3) + [1, 2, 3])
        let sdu: [UInt8] = [9, 8, 7, 6]
        try raw.sendACL(RawPeer.frame(channel: channels[0].localCID, length: sdu.count + 2) + le(sdu.count) + sdu)
        #expect(try await first("the SDU on the first channel", in: channels[0].sdus) { $0 } == sdu)
        await target.stop()
    }

    /// A peer that answers "pending" and then nothing: the open fails once the extended
    /// timeout has run (not the shorter response timeout), the CIDs it reserved are free
    /// for the next request, and the final answer arriving after that opens nothing.
    @Test func aPendingAnswerWithoutAFinalOneTimesOut() async throws {
        let target = try await HostilePeripheralTarget.start()
        let raw = target.raw
        let peer = target.peer
        // Short, but long enough for the test's own answer on a loaded machine (CI saw a
        // 300-ms response timeout run out before "pending" arrived).
        await Self.shortenTimeouts(of: target.central, response: .seconds(3), extended: .seconds(4))
        let opening = Task { try await peer.openChannels(psm: Self.psm, count: 2, parameters: Self.parameters) }
        let (identifier, request) = try await Self.nextRequest(raw)
        try Self.answer(raw, .refused(.pendingAuthorization, count: 2), identifier: identifier)
        await #expect(throws: L2CAPChannelError.timedOut(.seconds(4))) { try await opening.value }

        // Too late: the answer opens nothing, and the next request reuses the CIDs.
        try Self.answer(raw, CreditBasedConnectionResponse(mtu: 120, mps: 70, initialCredits: 5, result: .success,
                                                           destinationCIDs: Self.rawCIDs), identifier: identifier)
        let again = Task { try await peer.openChannels(psm: Self.psm, count: 2, parameters: Self.parameters) }
        let (next, retry) = try await Self.nextRequest(raw)
        #expect(next != identifier)
        #expect(retry.sourceCIDs == request.sourceCIDs)
        // No pending answer this time: the plain response timeout applies.
        await #expect(throws: L2CAPChannelError.timedOut(.seconds(3))) { try await again.value }
        await target.stop()
    }
}
