import SwiftATTCore
import SwiftATTHCI
import Testing

/// HCI command flow control and matching (Core 5.4 Vol 4 Part E §4.4), fed events by
/// hand: no controller needed.
@Suite struct CommandFlowTests {
    static let t0 = MonotonicInstant.now
    static let reset = HCICommandPacket(opcode: HCIOpcode(ogf: 3, ocf: 3), parameters: [])
    static let readAddress = HCICommandPacket(opcode: HCIOpcode(ogf: 4, ocf: 9), parameters: [])

    static func complete(_ packet: HCICommandPacket, credits: UInt8 = 1, status: UInt8 = 0) -> HCIEvent {
        .commandComplete(CommandComplete(numHCICommandPackets: credits, commandOpcode: packet.opcode, returnParameters: [status]))
    }

    @Test func oneCreditMeansOneCommandInFlight() {
        var flow = HCICommandFlow<Int>()
        #expect(flow.submit(Self.reset, token: 1, timeout: .seconds(1), now: Self.t0) == [Self.reset])
        #expect(flow.submit(Self.readAddress, token: 2, timeout: .seconds(1), now: Self.t0).isEmpty)
        #expect(flow.inFlightCount == 1 && flow.waitingCount == 1)
        let (outcomes, send) = flow.receive(Self.complete(Self.reset), now: Self.t0)
        #expect(outcomes.count == 1)
        if case let .complete(token, complete)? = outcomes.first {
            #expect(token == 1 && complete.commandOpcode == Self.reset.opcode)
        } else {
            Issue.record("expected completion of the first command")
        }
        #expect(send == [Self.readAddress])
    }

    @Test func creditsFromTheControllerAreAbsolute() {
        var flow = HCICommandFlow<Int>()
        _ = flow.submit(Self.reset, token: 1, timeout: .seconds(1), now: Self.t0)
        for token in 2...5 { _ = flow.submit(Self.readAddress, token: token, timeout: .seconds(1), now: Self.t0) }
        // Granting 3 credits releases three waiting commands at once.
        let (_, send) = flow.receive(Self.complete(Self.reset, credits: 3), now: Self.t0)
        #expect(send.count == 3)
        #expect(flow.credits == 0)
        // A completion that grants none (credits 0) stalls the queue.
        let (outcomes, more) = flow.receive(Self.complete(Self.readAddress, credits: 0), now: Self.t0)
        #expect(outcomes.count == 1 && more.isEmpty)
    }

    @Test func sameOpcodeCompletesInOrder() {
        var flow = HCICommandFlow<Int>(initialCredits: 2)
        _ = flow.submit(Self.readAddress, token: 1, timeout: .seconds(1), now: Self.t0)
        _ = flow.submit(Self.readAddress, token: 2, timeout: .seconds(1), now: Self.t0)
        var tokens: [Int] = []
        for _ in 0..<2 {
            for case let .complete(token, _) in flow.receive(Self.complete(Self.readAddress, credits: 2), now: Self.t0).outcomes {
                tokens.append(token)
            }
        }
        #expect(tokens == [1, 2])
    }

    @Test func unansweredCommandTimesOutAndRestoresTheCredit() {
        var flow = HCICommandFlow<Int>()
        _ = flow.submit(Self.reset, token: 1, timeout: .milliseconds(100), now: Self.t0)
        _ = flow.submit(Self.readAddress, token: 2, timeout: .seconds(1), now: Self.t0)
        #expect(flow.nextDeadline == Self.t0 + .milliseconds(100))
        #expect(flow.expire(now: Self.t0 + .milliseconds(99)).outcomes.isEmpty)
        let (outcomes, send) = flow.expire(now: Self.t0 + .milliseconds(100))
        #expect(outcomes.count == 1)
        if case let .timedOut(token, opcode)? = outcomes.first {
            #expect(token == 1 && opcode == Self.reset.opcode)
        } else {
            Issue.record("expected a timeout")
        }
        #expect(send == [Self.readAddress])
    }

    /// A late answer to a timed-out command is not taken for the next command with the
    /// same opcode.
    @Test func lateAnswerIsAbsorbed() {
        var flow = HCICommandFlow<Int>()
        _ = flow.submit(Self.readAddress, token: 1, timeout: .milliseconds(10), now: Self.t0)
        _ = flow.expire(now: Self.t0 + .milliseconds(10))
        _ = flow.submit(Self.readAddress, token: 2, timeout: .seconds(1), now: Self.t0 + .milliseconds(10))
        #expect(flow.receive(Self.complete(Self.readAddress), now: Self.t0).outcomes.isEmpty)
        let outcomes = flow.receive(Self.complete(Self.readAddress), now: Self.t0).outcomes
        if case let .complete(token, _)? = outcomes.first { #expect(token == 2) } else { Issue.record("no completion") }
    }

    @Test func commandStatusSettlesToo() {
        var flow = HCICommandFlow<Int>()
        let create = HCICommandPacket(opcode: HCIOpcode(ogf: 8, ocf: 0x0D), parameters: [])
        _ = flow.submit(create, token: 7, timeout: .seconds(1), now: Self.t0)
        let event = HCIEvent.commandStatus(CommandStatus(status: .success, numHCICommandPackets: 1, commandOpcode: create.opcode))
        let outcomes = flow.receive(event, now: Self.t0).outcomes
        if case let .status(token, status)? = outcomes.first {
            #expect(token == 7 && status.status == .success)
        } else {
            Issue.record("expected a status outcome")
        }
    }

    @Test func unsolicitedCompletionOnlyUpdatesCredits() {
        var flow = HCICommandFlow<Int>(initialCredits: 0)
        _ = flow.submit(Self.reset, token: 1, timeout: .seconds(1), now: Self.t0)
        let nop = HCIEvent.commandComplete(CommandComplete(numHCICommandPackets: 1, commandOpcode: HCIOpcode(rawValue: 0), returnParameters: []))
        let (outcomes, send) = flow.receive(nop, now: Self.t0)
        #expect(outcomes.isEmpty && send == [Self.reset])
    }

    @Test func cancelAllReturnsEveryPendingToken() {
        var flow = HCICommandFlow<Int>()
        for t in 1...4 { _ = flow.submit(Self.reset, token: t, timeout: .seconds(1), now: Self.t0) }
        #expect(flow.cancelAll().sorted() == [1, 2, 3, 4])
        #expect(flow.inFlightCount == 0 && flow.waitingCount == 0)
    }

    /// A hardware error (Core 5.4 Vol 4 Part E §7.7.16): everything pending fails, a
    /// credit is granted for the host's Reset even though the failed command kept the
    /// only one, and the failed command's late answer does not complete the Reset.
    @Test func restartFailsEverythingAndGrantsACreditForReset() {
        var flow = HCICommandFlow<Int>()
        _ = flow.submit(Self.readAddress, token: 1, timeout: .seconds(30), now: Self.t0)
        _ = flow.submit(Self.readAddress, token: 2, timeout: .seconds(30), now: Self.t0)
        #expect(flow.credits == 0)
        #expect(flow.restart() == [1, 2])
        #expect(flow.inFlightCount == 0 && flow.waitingCount == 0 && flow.credits == 1)
        #expect(flow.submit(Self.reset, token: 3, timeout: .seconds(5), now: Self.t0) == [Self.reset])
        _ = flow.submit(Self.readAddress, token: 4, timeout: .seconds(1), now: Self.t0)
        // The failed Read BD_ADDR answered late: absorbed, but its credit releases the next.
        let (late, next) = flow.receive(Self.complete(Self.readAddress), now: Self.t0)
        #expect(late.isEmpty && next == [Self.readAddress])
        let (reset, _) = flow.receive(Self.complete(Self.reset), now: Self.t0)
        guard case let .complete(token, _)? = reset.first else { Issue.record("Reset not completed: \(reset)"); return }
        #expect(token == 3)
        let (read, _) = flow.receive(Self.complete(Self.readAddress), now: Self.t0)
        guard case let .complete(token, _)? = read.first else { Issue.record("Read BD_ADDR not completed: \(read)"); return }
        #expect(token == 4)
    }

    /// `admit` and `receive(_:)`, the forms the host's round trip uses, hold no
    /// packet back: a command without a credit waits, and the credit an answer grants
    /// shows as `canRelease` until `release` sends it.
    @Test func admitWaitsForACreditThatAnAnswerGrants() {
        var flow = HCICommandFlow<Int>()
        #expect(flow.admit(Self.reset, token: 1, timeout: .seconds(1), now: Self.t0) == Self.reset)
        #expect(flow.admit(Self.readAddress, token: 2, timeout: .seconds(1), now: Self.t0) == nil)
        #expect(!flow.canRelease && flow.waitingCount == 1 && flow.inFlightCount == 1)
        #expect(flow.receive(CommandComplete(numHCICommandPackets: 1, commandOpcode: Self.reset.opcode, returnParameters: [0])) == 1)
        #expect(flow.canRelease)
        var send: [HCICommandPacket] = []
        flow.release(now: Self.t0, into: &send)
        #expect(send == [Self.readAddress] && !flow.canRelease && flow.waitingCount == 0)
        // An answer no command waits for settles nothing; its credits still count.
        #expect(flow.receive(CommandStatus(status: .success, numHCICommandPackets: 3, commandOpcode: Self.reset.opcode)) == nil)
        #expect(flow.credits == 3 && !flow.canRelease)
    }

    /// Both forms of the flow, driven by the same random script (commands, answers
    /// with random credits and opcodes, expiries), send the same packets and settle the
    /// same tokens in the same order.
    @Test func singleCommandFormsMatchTheArrayForms() {
        var arrays = HCICommandFlow<Int>(), single = HCICommandFlow<Int>()
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(bound))
        }
        func described(_ outcome: HCICommandFlow<Int>.Outcome) -> String {
            switch outcome {
            case let .complete(token, complete): "complete \(token) \(complete.commandOpcode.rawValue)"
            case let .status(token, status): "status \(token) \(status.commandOpcode.rawValue)"
            case let .timedOut(token, opcode): "timeout \(token) \(opcode.rawValue)"
            }
        }
        let packets = [Self.reset, Self.readAddress]
        var now = Self.t0
        var outcomes2: [HCICommandFlow<Int>.Outcome] = []
        for step in 0..<2000 {
            var expected: ([String], [HCICommandPacket]) = ([], [])
            var actual: ([String], [HCICommandPacket]) = ([], [])
            switch next(3) {
            case 0:
                let packet = packets[next(2)]
                let timeout = Duration.milliseconds(1 + next(50))
                expected.1 = arrays.submit(packet, token: step, timeout: timeout, now: now)
                if let sent = single.admit(packet, token: step, timeout: timeout, now: now) { actual.1 = [sent] }
            case 1:
                let packet = packets[next(2)], credits = UInt8(next(3))
                let event: HCIEvent = next(2) == 0 ? Self.complete(packet, credits: credits)
                    : .commandStatus(CommandStatus(status: .success, numHCICommandPackets: credits, commandOpcode: packet.opcode))
                let (outcomes, send) = arrays.receive(event, now: now)
                expected = (outcomes.map(described), send)
                switch event {
                case let .commandComplete(complete):
                    if let token = single.receive(complete) { actual.0 = [described(.complete(token, complete))] }
                case let .commandStatus(status):
                    if let token = single.receive(status) { actual.0 = [described(.status(token, status))] }
                default: break
                }
                if single.canRelease { single.release(now: now, into: &actual.1) }
            default:
                now = now + .milliseconds(next(20))
                let (outcomes, send) = arrays.expire(now: now)
                expected = (outcomes.map(described), send)
                single.expire(now: now, settling: &outcomes2, sending: &actual.1)
                actual.0 = outcomes2.map(described)
                outcomes2.removeAll()
            }
            #expect(expected.0 == actual.0 && expected.1 == actual.1, "step \(step)")
            #expect(arrays.credits == single.credits && arrays.waitingCount == single.waitingCount
                    && arrays.inFlightCount == single.inFlightCount, "step \(step)")
            if expected.0 != actual.0 || expected.1 != actual.1 { return }
        }
    }

    /// Reset's Command Complete ends the debts of timed-out commands: after it, an
    /// answer with a timed-out command's opcode belongs to a new command.
    @Test func resetForgivesAbandonedCommands() {
        var flow = HCICommandFlow<Int>()
        _ = flow.submit(Self.readAddress, token: 1, timeout: .seconds(1), now: Self.t0)
        _ = flow.expire(now: Self.t0 + .seconds(2))
        _ = flow.submit(Self.reset, token: 2, timeout: .seconds(1), now: Self.t0)
        _ = flow.receive(Self.complete(Self.reset), now: Self.t0)
        _ = flow.submit(Self.readAddress, token: 3, timeout: .seconds(1), now: Self.t0)
        let (outcomes, _) = flow.receive(Self.complete(Self.readAddress), now: Self.t0)
        guard case let .complete(token, _)? = outcomes.first else { Issue.record("not completed: \(outcomes)"); return }
        #expect(token == 3)
    }
}

@Suite struct ACLFlowTests {
    static func packets(_ n: Int, handle: UInt16) -> [ACLDataPacket] {
        (0..<n).map { ACLDataPacket(handle: handle, packetBoundary: $0 == 0 ? .firstNonFlushable : .continuing, data: [UInt8($0)]) }
    }

    /// What the transport would carry: the packets `dequeue` handed out, decoded.
    static func sent(_ packets: [HCIPacket]) throws -> [ACLDataPacket] {
        try packets.map { packet in
            #expect(packet.type == .aclData)
            return try ACLDataPacket(parsing: packet.bytes)
        }
    }

    @Test func sendsOnlyWhileBuffersAreFree() {
        var flow = ACLFlow(bufferCount: 3, bufferLength: 27)
        flow.enqueue(Self.packets(5, handle: 1), on: 1)
        #expect(flow.dequeue().count == 3)
        #expect(flow.dequeue().isEmpty)
        flow.completed(2, on: 1)
        #expect(flow.dequeue().count == 2)
        #expect(flow.queuedCount == 0)
    }

    @Test func connectionsTakeTurns() throws {
        var flow = ACLFlow(bufferCount: 4, bufferLength: 27)
        flow.enqueue(Self.packets(4, handle: 1), on: 1)
        flow.enqueue(Self.packets(4, handle: 2), on: 2)
        #expect(try Self.sent(flow.dequeue()).map(\.handle) == [1, 2, 1, 2])
    }

    /// Packets leave exactly as queued (header and data), and a connection with nothing
    /// queued or in flight is forgotten: its counts read zero and the turn moves on.
    @Test func packetsLeaveAsQueuedAndIdleConnectionsAreForgotten() throws {
        var flow = ACLFlow(bufferCount: 8, bufferLength: 27)
        let packets = Self.packets(3, handle: 7)
        flow.enqueue(packets, on: 7)
        flow.enqueue(encoded: [0x08, 0x00, 0x02, 0x00, 0xAA, 0xBB], on: 8)
        let out = flow.dequeue()
        #expect(out.map { Array($0.bytes) } == [packets[0].encoded(), [0x08, 0x00, 0x02, 0x00, 0xAA, 0xBB], packets[1].encoded(), packets[2].encoded()])
        #expect(flow.inFlight(on: 7) == 3 && flow.inFlight(on: 8) == 1)
        flow.completed(3, on: 7)
        #expect(flow.inFlight(on: 7) == 0 && flow.queuedCount(on: 7) == 0 && flow.available == 7)
        flow.enqueue(Self.packets(1, handle: 9), on: 9)
        flow.enqueue(Self.packets(1, handle: 8), on: 8)
        #expect(try Self.sent(flow.dequeue()).map(\.handle).sorted() == [8, 9])
        #expect(flow.disconnected(7) == 0)
    }

    @Test func excessCompletionsDoNotInflateBuffers() {
        var flow = ACLFlow(bufferCount: 2, bufferLength: 27)
        flow.enqueue(Self.packets(1, handle: 1), on: 1)
        _ = flow.dequeue()
        flow.completed(10, on: 1)
        flow.completed(5, on: 9)
        #expect(flow.available == 2)
    }

    /// A long queue drained a few packets at a time keeps its order across the
    /// queue's compactions.
    @Test func aLongQueueLeavesInOrder() throws {
        var flow = ACLFlow(bufferCount: 5, bufferLength: 27)
        flow.enqueue(Self.packets(150, handle: 1), on: 1)
        var sent: [UInt8] = []
        while flow.queuedCount(on: 1) > 0 {
            let batch = flow.dequeue()
            sent += try Self.sent(batch).map { $0.data.first ?? 0xFF }
            flow.completed(batch.count, on: 1)
            // More arrive while the queue drains.
            if sent.count == 50 { flow.enqueue(Self.packets(10, handle: 1), on: 1) }
        }
        #expect(sent == (0..<150).map { UInt8($0) } + (0..<10).map { UInt8($0) })
    }

    @Test func disconnectionFreesBuffersAndDropsTheQueue() throws {
        var flow = ACLFlow(bufferCount: 2, bufferLength: 27)
        flow.enqueue(Self.packets(5, handle: 1), on: 1)
        flow.enqueue(Self.packets(2, handle: 2), on: 2)
        #expect(try Self.sent(flow.dequeue()).map(\.handle) == [1, 2])
        #expect(flow.available == 0)
        #expect(flow.disconnected(1) == 4)
        #expect(flow.available == 1)
        #expect(try Self.sent(flow.dequeue()).map(\.handle) == [2])
    }
}
