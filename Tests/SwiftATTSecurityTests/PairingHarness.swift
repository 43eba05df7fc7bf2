import SwiftATTCore
import SwiftATTSMP
@testable import SwiftATTSecurity

/// Two `PairingSession`s joined back to back: every PDU one sends is fed to the other,
/// `.startEncryption` plays the controller (the responder's LTK for the request must be
/// the initiator's key, as a real link's MIC check demands), and the users answer the
/// prompts as `Users` says. Records everything both sides did.
struct PairingHarness {
    var initiator: PairingSession
    var responder: PairingSession
    var users = Users()
    var clock = MonotonicInstant.now

    /// What each side reported, in order.
    var initiatorActions: [PairingAction] = []
    var responderActions: [PairingAction] = []
    /// The PDUs on the link, in order, and who sent them.
    var traffic: [(from: PairingRole, pdu: SMPPDU)] = []
    /// The passkey shown on either side, if any.
    var displayedPasskey: UInt32?
    /// The numbers each side asked its user to compare.
    var comparedNumbers: [PairingRole: UInt32] = [:]
    /// The key each controller encrypted with.
    var encryptionKeys: [PairingRole: UInt128] = [:]
    /// A man in the middle: rewrites a PDU one side sent before the other receives it
    /// (`traffic` records what was sent).
    var tamper: (@Sendable (PairingRole, SMPPDU) -> SMPPDU)?

    struct Users {
        /// What a user asked for a passkey types: the displayed one unless overridden.
        var typedPasskey: [PairingRole: UInt32?] = [:]
        /// The passkey both users type when neither device displays one.
        var sharedPasskey: UInt32 = 123_456
        var confirms: [PairingRole: Bool] = [:]
        var accepts = true
    }

    static let initiatorAddress = BluetoothAddress(0xC0_11_22_33_44_55, kind: .random)
    static let responderAddress = BluetoothAddress(0xC0_66_77_88_99_AA, kind: .random)

    init(initiator: PairingConfiguration = PairingConfiguration(),
         responder: PairingConfiguration = PairingConfiguration()) {
        self.initiator = PairingSession(role: .initiator, configuration: initiator,
                                        initiatorAddress: Self.initiatorAddress, responderAddress: Self.responderAddress)
        self.responder = PairingSession(role: .responder, configuration: responder,
                                        initiatorAddress: Self.initiatorAddress, responderAddress: Self.responderAddress)
    }

    /// Runs the pairing to its end; returns both outcomes.
    mutating func run() -> (initiator: Outcome, responder: Outcome) {
        let first = initiator.start(now: clock)
        perform(first, by: .initiator)
        return (outcome(initiatorActions), outcome(responderActions))
    }

    enum Outcome: Equatable {
        case completed(PairingResult)
        case failed(PairingFailure)
        case unfinished
    }

    func outcome(_ actions: [PairingAction]) -> Outcome {
        for a in actions.reversed() {
            if case let .completed(r) = a { return .completed(r) }
            if case let .failed(f) = a { return .failed(f) }
        }
        return .unfinished
    }

    /// Performs `actions` of `side`, and everything they cause, breadth first.
    mutating func perform(_ actions: [PairingAction], by side: PairingRole) {
        var queue: [(PairingRole, [PairingAction])] = [(side, actions)]
        // Users type passkeys once the link is quiet: by then the other device has shown its.
        var typing: [PairingRole] = []
        let now = clock
        while !queue.isEmpty || !typing.isEmpty {
            if queue.isEmpty {
                let who = typing.removeFirst()
                let typed: UInt32? = users.typedPasskey[who] ?? (displayedPasskey ?? users.sharedPasskey)
                queue.append((who, mutate(who) { $0.enterPasskey(typed, now: now) }))
                continue
            }
            let (who, list) = queue.removeFirst()
            for action in list {
                if who == .initiator { initiatorActions.append(action) } else { responderActions.append(action) }
                let other: PairingRole = who == .initiator ? .responder : .initiator
                switch action {
                case let .send(pdu):
                    traffic.append((who, pdu))
                    let delivered = tamper?(who, pdu) ?? pdu
                    queue.append((other, deliver(delivered.bytes[...], to: other)))
                case .acceptPairing:
                    queue.append((who, responder.accept(users.accepts, now: clock)))
                case let .confirmNumber(n):
                    comparedNumbers[who] = n
                    let yes = users.confirms[who] ?? true
                    queue.append((who, mutate(who) { $0.confirm(yes, now: now) }))
                case let .displayPasskey(p):
                    displayedPasskey = p
                case .requestPasskey:
                    typing.append(who)
                case let .startEncryption(ltk):
                    // The controller: the responder's host supplies its key for the request.
                    encryptionKeys[.initiator] = ltk.key
                    let key = responder.longTermKeyRequested(ediv: ltk.ediv, rand: ltk.rand)
                    encryptionKeys[.responder] = key
                    let status: UInt8 = key == ltk.key ? 0 : 0x06
                    queue.append((.responder, responder.encryptionChanged(status: status, now: clock)))
                    queue.append((.initiator, initiator.encryptionChanged(status: status, now: clock)))
                case .peerKeypress, .completed, .failed:
                    break
                }
            }
        }
    }

    mutating func deliver(_ bytes: ArraySlice<UInt8>, to side: PairingRole) -> [PairingAction] {
        let now = clock
        return mutate(side) { $0.receive(bytes, now: now) }
    }

    mutating func mutate(_ side: PairingRole, _ body: (inout PairingSession) -> [PairingAction]) -> [PairingAction] {
        side == .initiator ? body(&initiator) : body(&responder)
    }
}
