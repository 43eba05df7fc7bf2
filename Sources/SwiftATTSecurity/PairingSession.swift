import SwiftATTCore
import SwiftATTCrypto
import SwiftATTSMP

/// One pairing on one link: the Security Manager Protocol as a pure state machine.
///
/// Core 5.4 Vol 3 Part H §2.3 and §3: phase 1 exchanges the pairing features and picks
/// the association model (`PairingMethod`); phase 2 authenticates — LE Secure
/// Connections (§2.3.5.6: P-256 keys, then Just Works, Numeric Comparison, Passkey Entry
/// in 20 rounds, or out of band, then the DHKey checks) or LE legacy pairing (§2.3.5.2–
/// §2.3.5.5: TK, confirm and random values, the STK) — and has the link encrypted;
/// phase 3 distributes the keys (§3.6.1), the responder first.
///
/// Like `ATTBearer` and `GATTServer`: no I/O, no threads, no clock. The host feeds it the
/// SMP PDUs that arrive, the user's answers, the controller's Encryption Change and the
/// time, and performs the `PairingAction`s it returns. `nextDeadline` says when to call
/// `expire(now:)`.
///
/// Rules it enforces, and choices where the spec leaves room:
/// - A PDU that does not decode, or arrives when another is due, ends the pairing with
///   Pairing Failed: the decoding error's reason (Invalid Parameters) or Unspecified
///   Reason (§3.5.5). A reserved code is ignored, as §3.3 says.
/// - The peer's public key is checked before ECDH: one off the curve, out of range or
///   the point at infinity ends the pairing with DHKey Check Failed (the invalid-curve
///   attack, CVE-2018-5383); one equal to ours (a reflection) with Invalid Parameters.
/// - A confirm value that does not match its random ends with Confirm Value Failed; a
///   DHKey check that does not match with DHKey Check Failed; a user who rejects the
///   number with Numeric Comparison Failed, or cancels the passkey with Passkey Entry
///   Failed.
/// - Secure Connections Only mode refuses a peer without SC (Authentication Requirements)
///   or a key shorter than 16 octets (Encryption Key Size); `requiresMITM` refuses Just
///   Works (Authentication Requirements); a negotiated key shorter than
///   `minimumKeySize` gets Encryption Key Size.
/// - The SMP timer (30 s) restarts whenever a PDU is sent (§3.4). When it runs out the
///   pairing fails without a Pairing Failed PDU, and the session ignores everything after.
/// - Keys arrive in the order of §3.6.1 and only those negotiated; anything else ends the
///   pairing with Unspecified Reason. A legacy LTK, and a Secure Connections LTK, are cut
///   to the negotiated key size (§2.3.4).
public struct PairingSession: Sendable {
    /// The SMP timeout (Part H §3.4).
    public static let timeout: Duration = .seconds(30)

    /// Which side of the pairing this session plays.
    public let role: PairingRole
    /// What this device offers and demands.
    public let configuration: PairingConfiguration
    /// The initiator's address on this link (A in the spec's functions).
    public let initiatorAddress: BluetoothAddress
    /// The responder's address on this link (B).
    public let responderAddress: BluetoothAddress

    var phase: Phase = .idle
    /// When the SMP timer runs out; `nil` when it is stopped.
    public internal(set) var nextDeadline: MonotonicInstant?
    var negotiation: Negotiation?
    var sc = SecureConnectionsState()
    var legacy = LegacyState()
    var distribution = KeyDistributionState()
    /// Ours for Secure Connections; generated when first needed unless given.
    var keyPair: P256KeyPair?

    /// A session for one link. `keyPair` is this device's P-256 key for Secure
    /// Connections — the one its out-of-band data was computed with, or the debug key
    /// (§2.3.5.6.1) for sniffable test runs; generated fresh when `nil`.
    public init(role: PairingRole, configuration: PairingConfiguration,
                initiatorAddress: BluetoothAddress, responderAddress: BluetoothAddress,
                keyPair: P256KeyPair? = nil) {
        self.role = role
        self.configuration = configuration
        self.initiatorAddress = initiatorAddress
        self.responderAddress = responderAddress
        self.keyPair = keyPair
    }

    // MARK: - State

    enum Phase: Sendable, Hashable {
        case idle
        /// Responder: waiting for the application to accept the Pairing Request.
        case awaitingAcceptance
        /// Initiator: Pairing Request sent.
        case awaitingResponse
        /// Secure Connections: waiting for the peer's public key.
        case exchangingPublicKeys
        /// Phase 2's first stage: confirm and random values (and the user).
        case authenticating
        /// Secure Connections' second stage: the DHKey checks.
        case checkingDHKey
        /// Waiting for the controller's Encryption Change.
        case awaitingEncryption
        /// Phase 3.
        case distributingKeys
        case completed
        case failed
        case timedOut
    }

    /// What phase 1 settled.
    struct Negotiation: Sendable {
        var request: PairingFeatures
        var response: PairingFeatures
        var requestBytes: [UInt8]
        var responseBytes: [UInt8]
        var secureConnections: Bool
        var method: PairingMethod
        var keySize: UInt8
        var bonding: Bool
        /// Keys the initiator distributes, and the responder's (the Pairing Response's fields).
        var initiatorKeys: KeyDistribution
        var responderKeys: KeyDistribution
    }

    /// Whether a pairing is under way (between the first PDU and the end).
    public var isActive: Bool {
        switch phase {
        case .idle, .completed, .failed, .timedOut: return false
        default: return true
        }
    }

    /// Whether the session has ended, either way.
    public var isFinished: Bool {
        switch phase {
        case .completed, .failed, .timedOut: return true
        default: return false
        }
    }

    /// The association model, once phase 1 has picked it.
    public var method: PairingMethod? { negotiation?.method }
    /// Whether phase 1 settled on LE Secure Connections.
    public var isSecureConnections: Bool? { negotiation?.secureConnections }
    /// The negotiated encryption key size in octets, once phase 1 is done.
    public var keySize: Int? { negotiation.map { Int($0.keySize) } }

    // MARK: - Inputs

    /// Initiator: sends the Pairing Request.
    public mutating func start(now: MonotonicInstant) -> [PairingAction] {
        guard role == .initiator, phase == .idle else { return [] }
        var out: [PairingAction] = []
        let request = localFeatures(requesting: nil)
        sendPDU(.pairingRequest(request), now: now, into: &out)
        phase = .awaitingResponse
        return out
    }

    /// An SMP PDU from the peer (the payload of a CID 0x0006 frame).
    public mutating func receive(_ bytes: ArraySlice<UInt8>, now: MonotonicInstant) -> [PairingAction] {
        switch phase {
        case .completed, .failed, .timedOut: return []
        default: break
        }
        var out: [PairingAction] = []
        let pdu: SMPPDU
        do {
            pdu = try SMPPDU(decoding: bytes)
        } catch {
            // A reserved code is ignored (§3.3); so is a malformed Pairing Failed
            // before anything started, which would otherwise be answered in kind.
            if error.isIgnoredOnReceipt { return [] }
            if phase == .idle, bytes.first == SMPCode.pairingFailed.rawValue { return [] }
            fail(sending: error.pairingFailureReason, now: now, into: &out)
            return out
        }
        handle(pdu, bytes: bytes, now: now, into: &out)
        return out
    }

    /// Responder: the application's answer to `.acceptPairing`.
    public mutating func accept(_ accepted: Bool, now: MonotonicInstant) -> [PairingAction] {
        guard phase == .awaitingAcceptance, let request = pendingRequest else { return [] }
        var out: [PairingAction] = []
        pendingRequest = nil
        if accepted {
            respond(to: request.features, bytes: request.bytes, now: now, into: &out)
        } else {
            fail(sending: .pairingNotSupported, now: now, into: &out)
        }
        return out
    }

    /// Numeric Comparison: whether the user saw the same number on both devices.
    public mutating func confirm(_ matches: Bool, now: MonotonicInstant) -> [PairingAction] {
        // A user who answers after the pairing ended (the peer failed it, the timer ran
        // out) is answering nothing.
        guard sc.awaitingUserConfirmation, isActive else { return [] }
        var out: [PairingAction] = []
        sc.awaitingUserConfirmation = false
        if matches {
            userConfirmed(now: now, into: &out)
        } else {
            fail(sending: .numericComparisonFailed, now: now, into: &out)
        }
        return out
    }

    /// Passkey Entry: the passkey the user typed (0–999999), or `nil` if they cancelled.
    public mutating func enterPasskey(_ passkey: UInt32?, now: MonotonicInstant) -> [PairingAction] {
        guard awaitingPasskey, isActive else { return [] }
        var out: [PairingAction] = []
        awaitingPasskey = false
        guard let passkey, passkey <= 999_999 else {
            fail(sending: .passkeyEntryFailed, now: now, into: &out)
            return out
        }
        passkeyKnown(passkey, now: now, into: &out)
        return out
    }

    /// The controller's Encryption Change (or Encryption Key Refresh Complete) for this
    /// link, after `.startEncryption` (initiator) or the LTK this session gave for the
    /// peer's request (responder). `status` is the HCI status; 0 is success.
    public mutating func encryptionChanged(status: UInt8, now: MonotonicInstant) -> [PairingAction] {
        guard phase == .awaitingEncryption else { return [] }
        var out: [PairingAction] = []
        guard status == 0 else {
            phase = .failed
            nextDeadline = nil
            out.append(.failed(.encryptionFailed(status: status)))
            return out
        }
        beginKeyDistribution(now: now, into: &out)
        return out
    }

    /// Responder: the key for the controller's LE Long Term Key Request while this
    /// pairing waits for encryption (EDIV and Rand are zero for the STK and for Secure
    /// Connections keys); `nil` otherwise — the host answers from its bonds then.
    public func longTermKeyRequested(ediv: UInt16, rand: UInt64) -> UInt128? {
        guard role == .responder, phase == .awaitingEncryption, ediv == 0, rand == 0 else { return nil }
        return encryptionKey
    }

    /// The link dropped: a pairing under way fails.
    public mutating func disconnected() -> [PairingAction] {
        guard isActive else { return [] }
        phase = .failed
        nextDeadline = nil
        return [.failed(.disconnected)]
    }

    /// Fails the pairing if the SMP timer has run out.
    public mutating func expire(now: MonotonicInstant) -> [PairingAction] {
        guard let deadline = nextDeadline, deadline <= now, isActive else { return [] }
        phase = .timedOut
        nextDeadline = nil
        return [.failed(.timedOut)]
    }

    // MARK: - Shared steps

    /// The Pairing Request awaiting the application's answer.
    var pendingRequest: (features: PairingFeatures, bytes: [UInt8])?
    /// Waiting for the user to type the passkey.
    var awaitingPasskey = false
    /// The key the link is encrypted with at the end of phase 2 (STK or SC LTK).
    var encryptionKey: UInt128?

    mutating func sendPDU(_ pdu: SMPPDU, now: MonotonicInstant, into out: inout [PairingAction]) {
        out.append(.send(pdu))
        nextDeadline = now + Self.timeout
    }

    mutating func fail(sending reason: PairingFailureReason, now: MonotonicInstant,
                       into out: inout [PairingAction]) {
        out.append(.send(.pairingFailed(reason)))
        out.append(.failed(.sent(reason)))
        phase = .failed
        nextDeadline = nil
    }

    /// The features this device sends: its request, or its response to `request`.
    func localFeatures(requesting request: PairingFeatures?) -> PairingFeatures {
        let c = configuration
        var features = PairingFeatures(
            ioCapability: c.ioCapability,
            oobDataPresent: c.outOfBand?.peer != nil,
            authenticationRequirements: c.authenticationRequirements,
            maximumEncryptionKeySize: c.maximumKeySize,
            initiatorKeyDistribution: [], responderKeyDistribution: [])
        guard c.bonding else { return features }
        if let request {
            // The response may only keep keys the request asked for (§3.5.2).
            guard request.authenticationRequirements.contains(.bonding) else { return features }
            features.initiatorKeyDistribution = request.initiatorKeyDistribution
                .intersection(c.requestedKeys).subtracting(.linkKey)
            features.responderKeyDistribution = request.responderKeyDistribution
                .intersection(c.offeredKeys)
        } else {
            features.initiatorKeyDistribution = c.offeredKeys
            features.responderKeyDistribution = c.requestedKeys.subtracting(.linkKey)
        }
        return features
    }

    /// Settles phase 1 from both features; `nil` and a failure reason if this device
    /// cannot pair with them.
    func negotiate(request: PairingFeatures, requestBytes: [UInt8], response: PairingFeatures,
                   responseBytes: [UInt8]) -> Result<Negotiation, PairingFailureReason> {
        let c = configuration
        let bothSC = request.authenticationRequirements.contains(.secureConnections)
            && response.authenticationRequirements.contains(.secureConnections)
            && c.secureConnections != .disabled
        if c.secureConnections == .only && !bothSC { return .failure(.authenticationRequirements) }
        let keySize = min(request.maximumEncryptionKeySize, response.maximumEncryptionKeySize)
        if keySize < c.effectiveMinimumKeySize { return .failure(.encryptionKeySize) }
        let method = PairingMethod.select(initiator: request, responder: response, secureConnections: bothSC)
        // Legacy out-of-band pairing needs a TK shared out of band, which this device
        // never has: it only carries Secure Connections OOB data.
        if case .outOfBand = method, !bothSC { return .failure(.oobNotAvailable) }
        if c.requiresMITM && !method.isAuthenticated { return .failure(.authenticationRequirements) }
        let bonding = request.authenticationRequirements.contains(.bonding)
            && response.authenticationRequirements.contains(.bonding)
        // Secure Connections derives the LTK: the EncKey bit asks for nothing (§3.6.1).
        var initiatorKeys = bonding ? response.initiatorKeyDistribution.subtracting(.linkKey) : []
        var responderKeys = bonding ? response.responderKeyDistribution.subtracting(.linkKey) : []
        if bothSC {
            initiatorKeys.remove(.encryptionKey)
            responderKeys.remove(.encryptionKey)
        }
        return .success(Negotiation(
            request: request, response: response, requestBytes: requestBytes, responseBytes: responseBytes,
            secureConnections: bothSC, method: method, keySize: keySize, bonding: bonding,
            initiatorKeys: initiatorKeys, responderKeys: responderKeys))
    }

    /// Keeps the least significant `keySize` octets of a key (Part H §2.3.4).
    static func shorten(_ key: UInt128, to keySize: UInt8) -> UInt128 {
        keySize >= 16 ? key : key & ((1 << (8 * UInt128(keySize))) - 1)
    }

    /// A passkey drawn uniformly from 000000–999999 (Part H §2.3.5.3).
    static func randomPasskey() -> UInt32 {
        while true {
            let r = UInt32(truncatingIfNeeded: SecureRandom.uint64())
            // Reject the top partial range so every passkey is equally likely.
            if r < UInt32.max - UInt32.max % 1_000_000 { return r % 1_000_000 }
        }
    }
}
