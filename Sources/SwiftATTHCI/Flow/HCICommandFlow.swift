import SwiftATTCore

/// Command flow control and matching: which commands may be sent now, which event
/// answers which command, and which commands have waited too long.
///
/// Core 5.4 Vol 4 Part E §4.4: the controller grants Num_HCI_Command_Packets credits in
/// every Command Complete and Command Status; the host sends only while it holds one.
/// A controller that never answers a command (BENCH.md quirk 1; real ones do it too)
/// would keep that credit forever, so every command has a deadline: when it passes the
/// command fails with a timeout naming it and one credit is restored. A late answer to a
/// timed-out command is absorbed rather than matched to the next command with the same
/// opcode. Pure state: the caller supplies the clock and sends what this returns.
public struct HCICommandFlow<Token: Sendable>: Sendable {
    /// What happened to a submitted command.
    public enum Outcome: Sendable {
        /// Command Complete answered the command.
        case complete(Token, CommandComplete)
        /// Command Status answered the command.
        case status(Token, CommandStatus)
        /// No answer came before the command's deadline.
        case timedOut(Token, HCIOpcode)
    }

    @usableFromInline
    struct Waiting: Sendable {
        @usableFromInline var token: Token
        @usableFromInline var packet: HCICommandPacket
        @usableFromInline var timeout: Duration

        @inlinable
        init(token: Token, packet: HCICommandPacket, timeout: Duration) {
            self.token = token
            self.packet = packet
            self.timeout = timeout
        }
    }

    @usableFromInline
    struct InFlight: Sendable {
        @usableFromInline var token: Token
        @usableFromInline var opcode: HCIOpcode
        @usableFromInline var deadline: MonotonicInstant

        @inlinable
        init(token: Token, opcode: HCIOpcode, deadline: MonotonicInstant) {
            self.token = token
            self.opcode = opcode
            self.deadline = deadline
        }
    }

    // Every member is inlinable: the host drives this type from another module, where a
    // generic type's code runs unspecialized, looking its metadata up on each call —
    // more than a third of the instructions of a command round trip before it was.

    /// Commands the controller will accept now.
    @inlinable public var credits: Int { granted }
    /// `credits`, settable by this type's inlinable members.
    @usableFromInline var granted: Int
    @usableFromInline var waiting: [Waiting] = []
    @usableFromInline var waitingStart = 0
    @usableFromInline var inFlight: [InFlight] = []
    @usableFromInline var abandoned: [HCIOpcode: Int] = [:]
    /// The last timeout a command carried, and it in nanoseconds: nearly every command
    /// carries the same one, and converting a `Duration` (128-bit arithmetic in the
    /// runtime) cost a few hundred instructions of each round trip.
    @usableFromInline var lastTimeout: (duration: Duration, nanoseconds: Int64) = (.zero, 0)

    /// Flow holding `initialCredits` command credits: one, until the controller says otherwise
    /// (Part E §4.4).
    @inlinable
    public init(initialCredits: Int = 1) {
        granted = initialCredits
    }

    /// Commands submitted but not yet sent for lack of credit.
    @inlinable public var waitingCount: Int { waiting.count - waitingStart }
    /// Commands sent and not yet answered.
    ///
    /// Inlinable, as `nextDeadline` is: the host asks both on every turn of its loop, and
    /// from another module a generic type's members run unspecialized, looking up the
    /// type's metadata on each call.
    @inlinable public var inFlightCount: Int { inFlight.count }

    /// The earliest deadline of a command in flight: when to call `expire` next.
    @inlinable public var nextDeadline: MonotonicInstant? {
        guard !inFlight.isEmpty else { return nil }
        var earliest = inFlight[0].deadline
        for entry in inFlight.dropFirst() where entry.deadline < earliest { earliest = entry.deadline }
        return earliest
    }

    /// Queues a command; returns the packets to send now (this one, if a credit is free).
    @inlinable
    public mutating func submit(_ packet: HCICommandPacket, token: Token, timeout: Duration, now: MonotonicInstant) -> [HCICommandPacket] {
        var send: [HCICommandPacket] = []
        submit(packet, token: token, timeout: timeout, now: now, sending: &send)
        return send
    }

    /// Queues a command and appends the packets to send now to `send`: a caller that
    /// keeps one array between calls allocates nothing per command.
    @inlinable
    public mutating func submit(_ packet: HCICommandPacket, token: Token, timeout: Duration,
                                now: MonotonicInstant, sending send: inout [HCICommandPacket]) {
        if let packet = admit(packet, token: token, timeout: timeout, now: now) { send.append(packet) }
    }

    /// Queues a command; returns it if it may be sent now (`submit`'s single-command
    /// form). At most one packet can be released by a submission: a credit free with commands waiting does not last past
    /// any of this type's mutations, so a free credit means the queue is empty and this
    /// command goes first. The common case, one command at a time, touches no queue and
    /// no array of packets (a few hundred instructions of a round trip).
    @inlinable
    public mutating func admit(_ packet: consuming HCICommandPacket, token: consuming Token, timeout: Duration,
                               now: MonotonicInstant) -> HCICommandPacket? {
        guard granted > 0, waitingStart == waiting.count else {
            waiting.append(Waiting(token: token, packet: packet, timeout: timeout))
            return nil
        }
        granted -= 1
        inFlight.append(InFlight(token: token, opcode: packet.opcode, deadline: deadline(now: now, timeout: timeout)))
        return packet
    }

    /// Handles an event; returns the outcomes it settles and the packets to send now.
    @inlinable
    public mutating func receive(_ event: HCIEvent, now: MonotonicInstant) -> (outcomes: [Outcome], send: [HCICommandPacket]) {
        var outcomes: [Outcome] = []
        var send: [HCICommandPacket] = []
        receive(event, now: now, settling: &outcomes, sending: &send)
        return (outcomes, send)
    }

    /// Handles an event, appending the outcomes it settles to `outcomes` and the packets
    /// to send now to `send` (arrays the caller keeps, so that an answer allocates
    /// nothing here).
    @inlinable
    public mutating func receive(_ event: HCIEvent, now: MonotonicInstant,
                                 settling outcomes: inout [Outcome], sending send: inout [HCICommandPacket]) {
        switch event {
        case let .commandComplete(complete):
            if let token = receive(complete) { outcomes.append(.complete(token, complete)) }
        case let .commandStatus(status):
            if let token = receive(status) { outcomes.append(.status(token, status)) }
        default:
            return
        }
        if canRelease { release(now: now, into: &send) }
    }

    /// Takes the credits a Command Complete grants; returns the token of the command it
    /// answers, if one waits for it. The credits may free commands that wait: when
    /// `canRelease` says so, `release(now:into:)` takes them. In steps, and with no
    /// `Outcome` made, so that a caller handles the common answer (nothing waiting) with
    /// no array and no enum copied through its value witnesses (some 800 instructions of
    /// a round trip, measured with callgrind).
    @inlinable
    public mutating func receive(_ complete: CommandComplete) -> Token? {
        granted = Int(complete.numHCICommandPackets)
        // Reset ends every earlier command (Core 5.4 Vol 4 Part E §7.3.2): their
        // answers, if any, came before this one; none is owed any more.
        if complete.commandOpcode == Reset.opcode && !abandoned.isEmpty { abandoned.removeAll() }
        return settle(complete.commandOpcode)
    }

    /// `receive(_:)` for a Command Status.
    @inlinable
    public mutating func receive(_ status: CommandStatus) -> Token? {
        granted = Int(status.numHCICommandPackets)
        return settle(status.commandOpcode)
    }

    /// Commands wait and a credit is free: `release(now:into:)` would send some.
    @inlinable public var canRelease: Bool { granted > 0 && waitingStart < waiting.count }

    /// Fails every command whose deadline has passed, restoring its credit.
    @inlinable
    public mutating func expire(now: MonotonicInstant) -> (outcomes: [Outcome], send: [HCICommandPacket]) {
        var outcomes: [Outcome] = []
        var send: [HCICommandPacket] = []
        expire(now: now, settling: &outcomes, sending: &send)
        return (outcomes, send)
    }

    /// `expire(now:)`, appending to arrays the caller keeps.
    @inlinable
    public mutating func expire(now: MonotonicInstant, settling outcomes: inout [Outcome],
                                sending send: inout [HCICommandPacket]) {
        let settled = outcomes.count
        inFlight.removeAll { entry in
            guard entry.deadline <= now else { return false }
            outcomes.append(.timedOut(entry.token, entry.opcode))
            abandoned[entry.opcode, default: 0] += 1
            granted = max(granted, 0) + 1
            return true
        }
        if outcomes.count > settled { release(now: now, into: &send) }
    }

    /// Fails everything (the transport closed): returns every token still pending.
    @inlinable
    public mutating func cancelAll() -> [Token] {
        let tokens = inFlight.map(\.token) + waiting[waitingStart...].map(\.token)
        inFlight.removeAll()
        waiting.removeAll()
        waitingStart = 0
        return tokens
    }

    /// The controller reported a hardware error and the host is about to reset it
    /// (Core 5.4 Vol 4 Part E §7.7.16): every pending command fails (returned here), a
    /// late answer to one in flight is absorbed, and one credit is granted so that the
    /// host's HCI_Reset goes out even if the failed controller kept them all.
    @inlinable
    public mutating func restart() -> [Token] {
        for entry in inFlight { abandoned[entry.opcode, default: 0] += 1 }
        let tokens = cancelAll()
        granted = 1
        return tokens
    }

    /// The oldest command in flight with this opcode (FIFO), unless an abandoned one of
    /// the same opcode is still owed an answer: that answer is consumed here.
    @inlinable
    mutating func settle(_ opcode: HCIOpcode) -> Token? {
        if !abandoned.isEmpty, let owed = abandoned[opcode], owed > 0 {
            abandoned[opcode] = owed == 1 ? nil : owed - 1
            return nil
        }
        // One command in flight, the usual case: taken off the end, not through
        // `remove(at:)`'s general move of the elements after it.
        if inFlight.count == 1 { return inFlight[0].opcode == opcode ? inFlight.removeLast().token : nil }
        guard let i = inFlight.firstIndex(where: { $0.opcode == opcode }) else { return nil }
        return inFlight.remove(at: i).token
    }

    /// Sends what waits while credits last, appending the packets to `send`.
    @inlinable
    public mutating func release(now: MonotonicInstant, into send: inout [HCICommandPacket]) {
        while granted > 0, waitingStart < waiting.count {
            let next = waiting[waitingStart]
            waitingStart += 1
            granted -= 1
            inFlight.append(InFlight(token: next.token, opcode: next.packet.opcode,
                                     deadline: deadline(now: now, timeout: next.timeout)))
            send.append(next.packet)
        }
        if waitingStart > 0 && waitingStart == waiting.count {
            waiting.removeAll(keepingCapacity: true)
            waitingStart = 0
        }
    }

    @inlinable
    mutating func deadline(now: MonotonicInstant, timeout: Duration) -> MonotonicInstant {
        if timeout != lastTimeout.duration {
            lastTimeout = (timeout, MonotonicInstant.saturatingNanoseconds(timeout))
        }
        return now.advanced(byNanoseconds: lastTimeout.nanoseconds)
    }
}
