import SwiftATTCore
import SwiftATTPDU

/// The Attribute Protocol bearer of one LE connection (L2CAP fixed channel 0x0004): the
/// sequencing rules of ATT, for both the client and the server on the link.
///
/// Core 5.4 Vol 3 Part F §3.3.2 (sequential protocol) and §3.3.3 (transactions): this
/// device has at most one request awaiting a response and one indication awaiting a
/// confirmation, and answers the peer's requests one at a time in order; the rest of its
/// requests and indications queue. Commands and notifications never wait. A transaction
/// unfinished after `transactionTimeout` (30 s) fails, and the bearer closes: it sends
/// nothing more and fails everything queued with `bearerClosed`. Exchange MTU
/// (§3.2.8, §3.4.2) runs at most once in each direction and sets ATT_MTU for both.
///
/// Pure state, like `HCICommandFlow`: the host's event loop feeds it inbound PDUs,
/// outbound work and the clock, and performs the `Action`s it returns. Tokens identify
/// the host's requests and indications (a continuation key, say); the bearer hands them
/// back unexamined, so the host keeps them unique.
///
/// Decisions where the spec is silent:
/// - A second Exchange MTU Request from the peer gets Request Not Supported: the spec
///   lets a client send one per connection, and a client whose exchange fails keeps its
///   ATT_MTU, so both ends stay on the value they agreed first.
/// - A Client or Server Rx MTU below 23 leaves ATT_MTU unchanged (§3.4.2.1, §3.4.2.2);
///   otherwise ATT_MTU = min(peer's Rx MTU, `receiveMTU`), applied after our Exchange MTU
///   Response is sent, or when the peer's arrives.
/// - A response that answers nothing outstanding, or not the outstanding request (another
///   response opcode, or an Error Response naming another request), is dropped: the real
///   answer may still come, and if it does not the timeout applies. A response with the
///   right opcode that does not decode fails the request with `malformedResponse`.
/// - A request the peer sends before this device answered its previous one breaks §3.3.2
///   and is dropped unanswered; the bearer stays open.
/// - Inbound indications are confirmed in the same `receive` that hands them up, so a
///   second indication always finds the first confirmed; each is delivered and
///   confirmed. One that does not decode is confirmed too (the transaction ends either
///   way) and reported as dropped.
/// - A Write Request or Prepare Write Request whose value exceeds 512 octets (§3.2.9)
///   gets Invalid Attribute Value Length with its handle; other requests that do not
///   decode get Invalid PDU with handle 0x0000.
/// - A request the host does not answer within `transactionTimeout` closes the bearer too
///   (§3.3.3: the server's transaction runs from receiving the request to sending the
///   response).
/// - Queues hold at most `queueLimit` requests and as many indications beyond the
///   outstanding ones; more throw `queueFull`.
/// - A request longer than ATT_MTU gets Invalid PDU with handle 0x0000 and a command that
///   long is dropped (§3.2.8: ATT_MTU is the most either side may send; a peer that
///   ignores it is not served). Notifications, indications and responses are not
///   measured: they answer or inform this device, and a value that arrived whole is
///   more use than an error.
public struct ATTBearer: Sendable {
    /// Names a request or indication in the actions that answer it; the caller picks
    /// them. An integer rather than a generic parameter: the host calls the bearer from
    /// another module, where a generic bearer would run unspecialized, looking up type
    /// metadata at run time on every PDU.
    public typealias Token = Int

    /// The largest PDU this device accepts, announced in Exchange MTU.
    public let receiveMTU: Int
    /// How long a transaction may take before it fails and the bearer closes.
    public let transactionTimeout: Duration
    /// How many requests, and separately indications, may wait behind the outstanding one.
    public let queueLimit: Int
    /// ATT_MTU: the longest PDU either side may send now. 23 until an Exchange MTU.
    public internal(set) var mtu = ATTLimits.defaultMTU

    /// A transaction this device started: our request awaiting its response, or our
    /// indication awaiting its confirmation.
    struct Outstanding: Sendable {
        var token: Token
        var opcode: ATTOpcode
        var deadline: MonotonicInstant
    }

    /// A request or indication waiting its turn, already encoded.
    struct Queued: Sendable {
        var token: Token
        var pdu: [UInt8]
    }

    /// This device as client: Core 5.4 Vol 3 Part F §3.3.2, one request at a time.
    enum ClientState: Sendable {
        case idle
        case awaitingResponse(Outstanding)
    }

    /// This device as server: the peer's request handed to the host, not yet answered.
    enum ServerState: Sendable {
        case idle
        case serving(request: ATTOpcode, deadline: MonotonicInstant)
    }

    /// This device's indications: one awaiting confirmation at a time.
    enum IndicationState: Sendable {
        case idle
        case awaitingConfirmation(Outstanding)
    }

    enum Lifecycle: Sendable {
        case open
        /// Closed by a transaction timeout or by the link going down, with the error new
        /// work fails with.
        case closed(ATTBearerError)
    }

    var lifecycle = Lifecycle.open
    var client = ClientState.idle
    var server = ServerState.idle
    var indications = IndicationState.idle
    var requestQueue: ATTBearerQueue<Queued>
    var indicationQueue: ATTBearerQueue<Queued>
    /// We sent our one Exchange MTU Request.
    var sentMTUExchange = false
    /// We answered the peer's one Exchange MTU Request.
    var answeredMTUExchange = false
    /// An Enhanced ATT bearer (`init(enhancedChannelMTU:peerChannelMTU:)`): ATT_MTU
    /// comes from its L2CAP channel.
    public internal(set) var isEnhanced = false

    /// A bearer for a new connection. `receiveMTU` is clamped into 23...65535; 517 lets a
    /// 512-octet value travel in one notification, Read Response or Write Request.
    public init(receiveMTU: Int = 517, transactionTimeout: Duration = .seconds(30), queueLimit: Int = 64) {
        self.receiveMTU = min(max(receiveMTU, ATTLimits.defaultMTU), Int(UInt16.max))
        self.transactionTimeout = transactionTimeout
        self.queueLimit = max(queueLimit, 0)
        requestQueue = ATTBearerQueue(limit: self.queueLimit)
        indicationQueue = ATTBearerQueue(limit: self.queueLimit)
    }

    /// Indications waiting behind the one awaiting confirmation: at `queueLimit`,
    /// `indicate` refuses the next.
    public var queuedIndications: Int { indicationQueue.count }

    /// The bearer sends nothing more: a transaction timed out or the link went down.
    public var isClosed: Bool {
        if case .closed = lifecycle { return true }
        return false
    }

    /// When to call `expire` next: the earliest deadline of an unfinished transaction.
    public var nextDeadline: MonotonicInstant? {
        guard case .open = lifecycle else { return nil }
        // No array: the host's loop asks every bearer on every turn.
        var earliest: MonotonicInstant?
        func consider(_ deadline: MonotonicInstant) {
            if earliest.map({ deadline < $0 }) ?? true { earliest = deadline }
        }
        if case let .awaitingResponse(o) = client { consider(o.deadline) }
        if case let .awaitingConfirmation(o) = indications { consider(o.deadline) }
        if case let .serving(_, deadline) = server { consider(deadline) }
        return earliest
    }

    // MARK: Outbound

    /// Sends a request now, or queues it behind the outstanding one. Its response (or
    /// failure) comes back as an action carrying `token`.
    public mutating func request(_ pdu: ATTPDU, token: Token, now: MonotonicInstant) throws(ATTBearerError) -> [Action] {
        try checkOpen()
        let opcode = pdu.opcode
        guard opcode != .exchangeMTURequest else { throw .reservedForBearer(opcode) }
        guard opcode.kind == .request else { throw .notARequest(opcode) }
        return try enqueueRequest(pdu, token: token, now: now)
    }

    /// Sends our Exchange MTU Request with `receiveMTU` (Core 5.4 Vol 3 Part G §4.3.1).
    /// The response arrives as `.response(token, …)`, preceded by `.mtuChanged` when
    /// ATT_MTU changes. Once per connection: a second call throws `mtuAlreadyExchanged`.
    public mutating func exchangeMTU(token: Token, now: MonotonicInstant) throws(ATTBearerError) -> [Action] {
        try checkOpen()
        guard !sentMTUExchange else { throw .mtuAlreadyExchanged }
        let pdu = ATTPDU.exchangeMTURequest(ExchangeMTURequest(clientRxMTU: UInt16(receiveMTU)))
        let actions = try enqueueRequest(pdu, token: token, now: now)
        sentMTUExchange = true
        return actions
    }

    /// Sends an indication now, or queues it behind the one awaiting confirmation.
    public mutating func indicate(_ indication: HandleValueIndication, token: Token, now: MonotonicInstant) throws(ATTBearerError) -> [Action] {
        try checkOpen()
        let bytes = try encode(.handleValueIndication(indication))
        if case .awaitingConfirmation = indications, indicationQueue.isFull {
            throw .queueFull(limit: queueLimit)
        }
        indicationQueue.append(Queued(token: token, pdu: bytes))
        return sendNextIndication(now: now)
    }

    /// Sends a command or notification at once; they never wait (§3.3.2).
    public mutating func send(_ pdu: ATTPDU) throws(ATTBearerError) -> [Action] {
        try validateSend(pdu)
        return [.send(pdu.encoded())]
    }

    /// Whether `send(_:)` would send `pdu` (the bearer is open, the PDU is a command or
    /// notification and fits ATT_MTU), throwing what it would throw, without encoding
    /// it: for a host that writes the PDU straight into its outgoing packet, the send
    /// path of every notification (`send` has no other effect).
    public func validateSend(_ pdu: ATTPDU) throws(ATTBearerError) {
        try checkOpen()
        let opcode = pdu.opcode
        guard opcode != .handleValueConfirmation else { throw .reservedForBearer(opcode) }
        guard opcode.kind == .command || opcode.kind == .notification else {
            throw .notACommandOrNotification(opcode)
        }
        let length = pdu.encodedLength
        guard length <= mtu else { throw .pduTooLong(length: length, mtu: mtu) }
    }

    /// Answers the peer's request from the last `serve` action: its response, or an Error
    /// Response naming it. On a throw nothing is sent and the request still awaits an
    /// answer (send a shorter one, or an Error Response).
    public mutating func respond(_ response: ATTPDU) throws(ATTBearerError) -> [Action] {
        try checkOpen()
        guard case let .serving(request, _) = server else { throw .noRequestPending }
        let answers: Bool
        if case let .errorResponse(error) = response {
            answers = error.requestOpcode == request
        } else {
            answers = response.opcode.kind == .response && response.opcode.rawValue == request.rawValue &+ 1
        }
        guard answers else { throw .responseMismatch(request: request, response: response.opcode) }
        let bytes = try encode(response)
        server = .idle
        return [.send(bytes)]
    }

    // MARK: Time and closing

    /// Fails the transactions whose deadline has passed; if any did, closes the bearer
    /// (§3.3.3): everything else pending fails with `bearerClosed`, then `.closed` says why.
    public mutating func expire(now: MonotonicInstant) -> [Action] {
        guard case .open = lifecycle else { return [] }
        var actions: [Action] = []
        var cause: ATTBearerError?
        if case let .awaitingResponse(o) = client, o.deadline <= now {
            let error = ATTBearerError.timedOut(opcode: o.opcode, after: transactionTimeout)
            actions.append(.requestFailed(o.token, error))
            client = .idle
            cause = error
        }
        if case let .awaitingConfirmation(o) = indications, o.deadline <= now {
            let error = ATTBearerError.timedOut(opcode: o.opcode, after: transactionTimeout)
            actions.append(.indicationFailed(o.token, error))
            indications = .idle
            cause = cause ?? error
        }
        if case let .serving(request, deadline) = server, deadline <= now {
            server = .idle
            cause = cause ?? .responseNotSent(request: request, after: transactionTimeout)
        }
        guard let cause else { return [] }
        lifecycle = .closed(.bearerClosed)
        return actions + failAll(with: .bearerClosed) + [.closed(cause)]
    }

    /// The link went down: fails everything pending with `disconnected(reason:)`. New work
    /// throws the same error. The host knows why it called this, so no `.closed` follows.
    public mutating func close(reason: ATTBearerError.DisconnectReason) -> [Action] {
        let error = ATTBearerError.disconnected(reason: reason)
        lifecycle = .closed(error)
        return failAll(with: error)
    }

    // MARK: Internals

    func checkOpen() throws(ATTBearerError) {
        if case let .closed(error) = lifecycle { throw error }
    }

    /// The PDU's bytes, if it fits in ATT_MTU.
    func encode(_ pdu: ATTPDU) throws(ATTBearerError) -> [UInt8] {
        let length = pdu.encodedLength
        guard length <= mtu else { throw .pduTooLong(length: length, mtu: mtu) }
        return pdu.encoded()
    }

    mutating func enqueueRequest(_ pdu: ATTPDU, token: Token, now: MonotonicInstant) throws(ATTBearerError) -> [Action] {
        let bytes = try encode(pdu)
        if case .awaitingResponse = client, requestQueue.isFull {
            throw .queueFull(limit: queueLimit)
        }
        requestQueue.append(Queued(token: token, pdu: bytes))
        return sendNextRequest(now: now)
    }

    /// Starts the next queued request if none is outstanding. ATT_MTU may have shrunk
    /// since it was queued, so its length is checked again.
    mutating func sendNextRequest(now: MonotonicInstant) -> [Action] {
        guard case .idle = client else { return [] }
        var actions: [Action] = []
        while let next = requestQueue.popFirst() {
            guard next.pdu.count <= mtu else {
                actions.append(.requestFailed(next.token, .pduTooLong(length: next.pdu.count, mtu: mtu)))
                continue
            }
            let opcode = ATTOpcode(next.pdu[0])
            client = .awaitingResponse(Outstanding(token: next.token, opcode: opcode, deadline: now + transactionTimeout))
            actions.append(.send(next.pdu))
            break
        }
        return actions
    }

    /// Starts the next queued indication if none awaits confirmation.
    mutating func sendNextIndication(now: MonotonicInstant) -> [Action] {
        guard case .idle = indications else { return [] }
        var actions: [Action] = []
        while let next = indicationQueue.popFirst() {
            guard next.pdu.count <= mtu else {
                actions.append(.indicationFailed(next.token, .pduTooLong(length: next.pdu.count, mtu: mtu)))
                continue
            }
            let outstanding = Outstanding(token: next.token, opcode: .handleValueIndication, deadline: now + transactionTimeout)
            indications = .awaitingConfirmation(outstanding)
            actions.append(.send(next.pdu))
            break
        }
        return actions
    }

    /// Fails every request and indication, outstanding first, then queued, in order.
    mutating func failAll(with error: ATTBearerError) -> [Action] {
        var actions: [Action] = []
        if case let .awaitingResponse(o) = client { actions.append(.requestFailed(o.token, error)) }
        for queued in requestQueue.removeAll() { actions.append(.requestFailed(queued.token, error)) }
        if case let .awaitingConfirmation(o) = indications { actions.append(.indicationFailed(o.token, error)) }
        for queued in indicationQueue.removeAll() { actions.append(.indicationFailed(queued.token, error)) }
        client = .idle
        indications = .idle
        server = .idle
        return actions
    }

    /// Records the peer's Rx MTU from an Exchange MTU in either direction (§3.4.2).
    mutating func learnPeerReceiveMTU(_ peerReceiveMTU: UInt16) -> [Action] {
        let peer = Int(peerReceiveMTU)
        guard peer >= ATTLimits.defaultMTU else { return [] }
        let agreed = min(peer, receiveMTU)
        guard agreed != mtu else { return [] }
        mtu = agreed
        return [.mtuChanged(agreed)]
    }
}
