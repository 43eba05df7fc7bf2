import SwiftATTPDU
import SwiftATTGATT
import Testing
import TestSupport

/// Seeded random inbound streams, mixed with our own requests, indications and the clock:
/// the bearer never traps, answers each peer request at most once (exactly once when it
/// is not still serving the previous one), confirms each indication once, finishes every
/// token exactly once, and never sends a PDU longer than ATT_MTU.
@Suite struct ATTBearerFuzzTests {
    typealias F = ATTBearerFixture

    /// Opcodes worth hitting often: every defined one plus a few undefined requests and commands.
    static let opcodes: [UInt8] = ATTOpcode.allDefined.map(\.rawValue) + [0x00, 0x3F, 0x14, 0x7F, 0xFF, 0x8A]

    /// A random PDU; a quarter of them answer what we sent last, so the client side and our
    /// indications see matching answers as well as noise.
    static func randomPDU(_ rng: inout SplitMix64, lastRequest: UInt8?) -> [UInt8] {
        if let request = lastRequest, Int.random(in: 0..<4, using: &rng) == 0 {
            switch Int.random(in: 0..<4, using: &rng) {
            case 0: return [0x01, request, 0x01, 0x00, 0x0A]
            case 1: return [0x1E]
            case 2: return [request &+ 1]
            default: return [request &+ 1] + (0..<Int.random(in: 1...6, using: &rng)).map { _ in UInt8.random(in: 0...3, using: &rng) }
            }
        }
        let length: Int
        switch Int.random(in: 0..<10, using: &rng) {
        case 0: length = 0
        case 1: length = Int.random(in: 500...700, using: &rng)
        default: length = Int.random(in: 1...24, using: &rng)
        }
        var bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &rng) }
        if !bytes.isEmpty, Bool.random(using: &rng) {
            bytes[0] = opcodes.randomElement(using: &rng)!
        }
        // Small handles and lengths make more PDUs decode.
        if bytes.count >= 3, Bool.random(using: &rng) { bytes[2] = 0 }
        return bytes
    }

    @Test(arguments: 1...24 as ClosedRange<UInt64>)
    func randomStreamsKeepTheRules(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        var now = F.t0
        var bearer = F.Bearer(receiveMTU: 517, transactionTimeout: .seconds(30), queueLimit: 8)
        var pendingTokens: Set<Int> = []
        var nextToken = 1
        var stalled: ATTOpcode?
        var lastRequest: UInt8?

        func settle(_ actions: [F.Action], mtuBefore: Int, in bearer: F.Bearer) {
            for action in actions {
                switch action {
                case let .send(pdu):
                    if let first = pdu.first, ATTOpcode(first).kind == .request { lastRequest = first }
                    #expect(!pdu.isEmpty)
                    #expect(pdu.count <= max(mtuBefore, bearer.mtu), "seed \(seed): \(pdu.count)-byte PDU")
                case let .response(token, _), let .requestFailed(token, _),
                     let .indicationConfirmed(token), let .indicationFailed(token, _):
                    #expect(pendingTokens.remove(token) != nil, "seed \(seed): token \(token) finished twice")
                default:
                    break
                }
            }
        }

        for _ in 0..<3000 {
            // Mostly brisk traffic; now and then a silence long enough for a timeout.
            now += Int.random(in: 0..<150, using: &rng) == 0 ? .seconds(31) : .milliseconds(Int.random(in: 0...500, using: &rng))
            let mtuBefore = bearer.mtu
            switch Int.random(in: 0..<20, using: &rng) {
            case 0:
                let handle = UInt16.random(in: 1...40, using: &rng)
                let value = (0..<Int.random(in: 0...30, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
                if let actions = try? bearer.request(F.write(handle, value), token: nextToken, now: now) {
                    pendingTokens.insert(nextToken)
                    settle(actions, mtuBefore: mtuBefore, in: bearer)
                }
                nextToken += 1
            case 1:
                if let actions = try? bearer.indicate(F.indication(UInt16.random(in: 1...40, using: &rng), [0x01]), token: nextToken, now: now) {
                    pendingTokens.insert(nextToken)
                    settle(actions, mtuBefore: mtuBefore, in: bearer)
                }
                nextToken += 1
            case 2:
                if let actions = try? bearer.exchangeMTU(token: nextToken, now: now) {
                    pendingTokens.insert(nextToken)
                    settle(actions, mtuBefore: mtuBefore, in: bearer)
                }
                nextToken += 1
            case 3:
                settle(bearer.expire(now: now), mtuBefore: mtuBefore, in: bearer)
            default:
                // A host that stalled on the previous request usually answers it by now.
                if let request = stalled, Bool.random(using: &rng) {
                    let answer = ATTPDU.errorResponse(ErrorResponse(requestOpcode: request, handle: 0, errorCode: .unlikelyError))
                    settle(try bearer.respond(answer), mtuBefore: mtuBefore, in: bearer)
                    stalled = nil
                }
                let wasServing = stalled != nil
                let pdu = Self.randomPDU(&rng, lastRequest: lastRequest)
                var actions = bearer.receive(pdu, now: now)
                // The host serves synchronously, except now and then it stalls.
                let stall = Int.random(in: 0..<8, using: &rng) == 0
                var served = false
                for case let .serve(request) in actions where request.opcode.kind == .request {
                    #expect(!served, "seed \(seed): one request served twice")
                    served = true
                    if stall {
                        stalled = request.opcode
                    } else {
                        let answer = ATTPDU.errorResponse(ErrorResponse(requestOpcode: request.opcode, handle: 0, errorCode: .requestNotSupported))
                        actions += try bearer.respond(answer)
                    }
                }
                settle(actions, mtuBefore: mtuBefore, in: bearer)
                let sent = F.sent(actions)
                let answers = sent.filter { ATTOpcode($0[0]).kind == .response }
                let kind = pdu.first.map { ATTOpcode($0).kind }
                #expect(answers.count <= 1, "seed \(seed): \(answers.count) answers to \(pdu)")
                switch kind {
                case .request? where wasServing:
                    #expect(actions == [.dropped(.requestBeforeResponse(ATTOpcode(pdu[0])))], "seed \(seed): \(pdu)")
                case .request?:
                    #expect(answers.count == (served && stall ? 0 : 1), "seed \(seed): \(pdu) answered \(answers.count) times")
                case .indication?:
                    #expect(sent.filter { $0 == [0x1E] }.count == 1, "seed \(seed): \(pdu) confirmed once")
                    #expect(answers.isEmpty)
                default:
                    #expect(answers.isEmpty, "seed \(seed): \(pdu) answered")
                }
            }
            if bearer.isClosed {
                // Reconnect: a new bearer, as the host would make for a new connection.
                settle(bearer.close(reason: .remoteUserTerminated), mtuBefore: bearer.mtu, in: bearer)
                #expect(pendingTokens.isEmpty, "seed \(seed): tokens left after close: \(pendingTokens)")
                bearer = F.Bearer(receiveMTU: 517, transactionTimeout: .seconds(30), queueLimit: 8)
                stalled = nil
            }
        }
        settle(bearer.close(reason: .localHostTerminated), mtuBefore: bearer.mtu, in: bearer)
        #expect(pendingTokens.isEmpty, "seed \(seed): every token finishes exactly once")
    }
}
