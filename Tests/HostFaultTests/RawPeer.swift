#if canImport(Glibc)
import Glibc
#endif
import SwiftATTPDU
import SwiftATTCore
import SwiftATTHCI
import SwiftATTL2CAP
import SwiftATTLoopback
import Synchronization
import SwiftATTTransport

/// A bare LE host that a test drives by hand: HCI commands to its loopback controller,
/// then whatever ACL bytes the test likes on the link, with what comes back read raw.
/// It follows no rule it is not told to (no flow control, no ATT sequencing), which is
/// what a hostile peer is.
///
/// A thread of its own blocks in `poll(2)` on the transport, decodes events and
/// reassembles L2CAP frames; test code awaits them with `next`, never blocking Swift's
/// cooperative pool (the hosts under test need it).
final class RawPeer: Sendable {
    /// What arrived from the controller, in order.
    enum Inbound: Sendable {
        case event(HCIEvent)
        case frame(L2CAPFrame)
    }

    struct TimedOut: Error, CustomStringConvertible {
        let waitingFor: String
        var description: String { "the raw peer waited in vain for \(waitingFor)" }
    }

    /// Someone awaiting `next`: takes what it waits for from the inbox and resumes its
    /// caller (false while it is not there), or is resumed empty-handed at its deadline.
    fileprivate struct Waiter: Sendable {
        let deadline: ContinuousClock.Instant
        let attempt: @Sendable (inout [Inbound]) -> Bool
        let expire: @Sendable () -> Void
    }

    fileprivate struct State {
        var transport: (any HCITransport)?
        var inbox: [Inbound] = []
        var waiters: [Waiter] = []
        var recombiner = L2CAPRecombiner(maximumPayloadLength: 0xFFFF)
        var handle: UInt16 = 0
        /// Packets stay with the controller, holding its buffers: a receiver that has
        /// stopped reading, so its peer's flow control backs up.
        var paused = false
    }

    let address: BluetoothAddress
    private let state: Mutex<State>

    private init(transport: sending any HCITransport, address: BluetoothAddress) {
        self.address = address
        state = Mutex(State(transport: transport))
    }

    deinit { close() }

    /// Opens `controller`, resets it and sets `address` as its static random address.
    static func start(_ controller: LoopbackController,
                      address: BluetoothAddress = BluetoothAddress(0xC0_BA_D0_00_00_01, kind: .random)) async throws -> RawPeer {
        let transport = try controller.open()
        let descriptor = transport.fileDescriptor
        let peer = RawPeer(transport: transport, address: address)
        Reader.start(descriptor: descriptor, peer: peer)
        try await peer.expectSuccess(Reset().packet)
        try await peer.expectSuccess(LESetRandomAddress(randomAddress: address).packet)
        return peer
    }

    /// Closes the transport: the controller's links end (the peers see a timeout).
    func close() {
        state.withLock { s in
            s.transport?.close()
            s.transport = nil
        }
    }

    /// Stops (or resumes) taking packets from the controller.
    func pauseReading(_ paused: Bool = true) {
        state.withLock { $0.paused = paused }
    }

    private var isPaused: Bool { state.withLock { $0.paused } }

    /// The connection handle of the last link made.
    var handle: UInt16 { state.withLock { $0.handle } }

    // MARK: Receiving

    /// Waits up to `timeout` for the first inbound item `take` accepts, removes it and
    /// returns what `take` made of it. Items it passes over stay for later calls.
    func next<T: Sendable>(_ what: String, within timeout: Duration = .seconds(30),
                           _ take: @escaping @Sendable (Inbound) -> T?) async throws -> T {
        let found: T? = await withCheckedContinuation { continuation in
            let attempt: @Sendable (inout [Inbound]) -> Bool = { inbox in
                for i in inbox.indices {
                    if let value = take(inbox[i]) {
                        inbox.remove(at: i)
                        continuation.resume(returning: value)
                        return true
                    }
                }
                return false
            }
            state.withLock { s in
                guard !attempt(&s.inbox) else { return }
                guard s.transport != nil else { return continuation.resume(returning: nil) }
                s.waiters.append(Waiter(deadline: .now + timeout, attempt: attempt, expire: { continuation.resume(returning: nil) }))
            }
        }
        guard let found else { throw TimedOut(waitingFor: what) }
        return found
    }

    /// The next event `match` accepts.
    func event<T: Sendable>(_ what: String, _ match: @escaping @Sendable (HCIEvent) -> T?) async throws -> T {
        try await next(what) { inbound in
            if case let .event(event) = inbound { return match(event) }
            return nil
        }
    }

    /// The next ATT PDU the peer sent (L2CAP channel 0x0004), whole.
    func nextATT(_ what: String = "an ATT PDU") async throws -> [UInt8] {
        try await next(what) { inbound in
            if case let .frame(frame) = inbound, frame.channel == L2CAPChannelIdentifier.attribute { return Array(frame.payload) }
            return nil
        }
    }

    /// Sends an ATT request and returns the next ATT PDU: its answer, if the server keeps
    /// to ATT's sequencing.
    func request(_ pdu: [UInt8]) async throws -> [UInt8] {
        try sendATT(pdu)
        return try await nextATT("the answer to ATT opcode 0x\(String(pdu.first ?? 0, radix: 16))")
    }

    /// `request`, decoded.
    func request(_ pdu: some ATTPDUCodable) async throws -> ATTPDU {
        try ATTPDU(parsing: try await request(pdu.encoded())[...])
    }

    /// The Disconnection Complete of the current link.
    func disconnection() async throws -> HCIStatus {
        let handle = self.handle
        return try await event("Disconnection Complete") { event in
            if case let .disconnectionComplete(d) = event, d.connectionHandle == handle { return d.reason }
            return nil
        }
    }

    // MARK: Sending

    func send(_ packet: HCIPacket) throws {
        try state.withLock { (s: inout State) throws(TransportError) in
            guard let transport = s.transport else { throw .closed("raw peer") }
            try transport.send(packet)
        }
    }

    /// Sends a command and returns the Command Complete or Command Status answering it.
    @discardableResult
    func command(_ packet: HCICommandPacket) async throws -> HCIEvent {
        try send(HCIPacket(type: .command, bytes: packet.encoded()[...]))
        let opcode = packet.opcode
        return try await event("the answer to \(opcode)") { event in
            switch event {
            case let .commandComplete(c) where c.commandOpcode == opcode: return event
            case let .commandStatus(s) where s.commandOpcode == opcode: return event
            default: return nil
            }
        }
    }

    /// Sends a command that must succeed.
    func expectSuccess(_ packet: HCICommandPacket) async throws {
        let answer = try await command(packet)
        let status: HCIStatus?
        switch answer {
        case let .commandComplete(c): status = c.status
        case let .commandStatus(s): status = s.status
        default: status = nil
        }
        guard status == .success else { throw TimedOut(waitingFor: "success of \(packet.opcode), got \(answer)") }
    }

    /// One ACL packet on the current link, exactly as given.
    func sendACL(_ data: [UInt8], boundary: ACLDataPacket.PacketBoundary = .firstNonFlushable) throws {
        let packet = ACLDataPacket(handle: handle, packetBoundary: boundary, data: data[...])
        try send(HCIPacket(type: .aclData, bytes: packet.encoded()[...]))
    }

    /// A whole ATT PDU in one L2CAP frame, in one ACL packet.
    func sendATT(_ pdu: [UInt8]) throws {
        try sendACL(Self.frame(channel: L2CAPChannelIdentifier.attribute, length: pdu.count) + pdu)
    }

    /// An L2CAP basic header (Core 5.4 Vol 3 Part A §3.1) announcing `length` octets.
    static func frame(channel: UInt16, length: Int) -> [UInt8] {
        [UInt8(length & 0xFF), UInt8(length >> 8), UInt8(channel & 0xFF), UInt8(channel >> 8)]
    }

    // MARK: Links

    /// Connects to an advertiser at `peer` as central (LE Create Connection, own
    /// address random) and returns the handle.
    @discardableResult
    func connect(to peer: BluetoothAddress) async throws -> UInt16 {
        try await expectSuccess(LECreateConnection(
            scanInterval: 16, scanWindow: 16, peerAddress: peer,
            connectionParameters: .init(intervalMin: 24, intervalMax: 40, maxLatency: 0, supervisionTimeout: 400)).packet)
        return try await connectionComplete()
    }

    /// Advertises connectably (ADV_IND) with its random address.
    func advertise() async throws {
        try await expectSuccess(LESetAdvertisingParameters(advertisingIntervalMin: 32, advertisingIntervalMax: 32).packet)
        try await expectSuccess(LESetAdvertisingData(advertisingData: [0x02, 0x01, 0x06]).packet)
        try await expectSuccess(LESetAdvertisingEnable(advertisingEnable: true).packet)
    }

    /// Waits for a link to come up (either role) and returns its handle.
    @discardableResult
    func connectionComplete() async throws -> UInt16 {
        let handle = try await event("LE Connection Complete") { event -> UInt16? in
            guard case let .leMeta(.connectionComplete(c)) = event, c.status == .success else { return nil }
            return c.connectionHandle
        }
        state.withLock { $0.handle = handle }
        return handle
    }

    // MARK: The reading thread

    private enum Reader {
        final class Body {
            let run: @Sendable () -> Void
            init(_ run: @escaping @Sendable () -> Void) { self.run = run }
        }

        /// Reads until the transport is closed. Holds the peer weakly: a peer nobody
        /// holds closes in `deinit`, and the thread ends.
        static func start(descriptor: Int32, peer: RawPeer) {
            let body = Body { [weak peer] in
                var fds = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)]
                while let current = peer {
                    // The short timeout is the waiters' clock.
                    let readable = current.isPaused ? poll(nil, 0, 20) > 0 : poll(&fds, 1, 20) > 0
                    guard current.pump(readable: readable) else { return }
                }
            }
            var thread = pthread_t()
            let rc = pthread_create(&thread, nil, { raw in
                Unmanaged<Body>.fromOpaque(raw!).takeRetainedValue().run()
                return nil
            }, Unmanaged.passRetained(body).toOpaque())
            precondition(rc == 0, "pthread_create: \(rc)")
            pthread_detach(thread)
        }
    }

    /// Takes what arrived, serves waiters, expires late ones. False once closed.
    private func pump(readable: Bool) -> Bool {
        state.withLock { s in
            guard let transport = s.transport else {
                for waiter in s.waiters { waiter.expire() }
                s.waiters.removeAll()
                return false
            }
            if readable {
                var packets: [HCIPacket] = []
                try? transport.receive { packets.append($0) }
                for packet in packets { s.accept(packet) }
            }
            let now = ContinuousClock.now
            s.waiters.removeAll { waiter in
                if waiter.attempt(&s.inbox) { return true }
                if waiter.deadline <= now {
                    waiter.expire()
                    return true
                }
                return false
            }
            return true
        }
    }
}

extension RawPeer.State {
    /// Decodes one packet into the inbox. Credits are dropped: this host keeps no flow
    /// control. L2CAP fragments are reassembled here, up to 64 KiB.
    fileprivate mutating func accept(_ packet: HCIPacket) {
        switch packet.type {
        case .event:
            guard let event = try? HCIEvent(parsing: Array(packet.bytes)[...]) else { return }
            if case .numberOfCompletedPackets = event { return }
            inbox.append(.event(event))
        case .aclData:
            guard let acl = try? ACLDataPacket(parsing: Array(packet.bytes)[...]) else { return }
            if let frame = recombiner.push(acl).frame {
                inbox.append(.frame(L2CAPFrame(connectionHandle: frame.connectionHandle, channel: frame.channel, payload: Array(frame.payload)[...])))
            }
        default:
            break
        }
    }
}
