import SwiftATTHCI

/// Where a loopback connection's link-layer encryption stands, for a test to check
/// (`LoopbackLink.encryption(ofConnection:)`).
public enum LoopbackEncryption: Sendable, Hashable {
    /// Plain text: never encrypted, or the peripheral's host had no key.
    case unencrypted
    /// The central's host sent `request` (LE Enable Encryption); the peripheral's host
    /// has an LE Long Term Key Request and the link waits for its answer. `previousKey`
    /// is the key the link was encrypted with before, for a key refresh.
    case awaitingKey(LEEnableEncryption, previousKey: UInt128?)
    /// Encrypted with the Long Term Key both hosts gave.
    case encrypted(longTermKey: UInt128)

    /// Whether the link is encrypted now.
    public var isEncrypted: Bool {
        if case .encrypted = self { return true }
        return false
    }
}

/// The encryption start procedure of one emulated connection, and on a link already
/// encrypted the pause-and-restart that refreshes its key (Core 5.4 Vol 6 Part B
/// §5.1.3.1, §5.1.3.2), reduced to what the two hosts see over HCI.
///
/// Nothing is enciphered: packets cross in memory. A real link finds out whether both
/// sides hold the same key when one fails to check the other's MIC; here the two keys
/// are compared, as Bumble's controllers do (BENCH.md quirk 11). Pure: the caller turns
/// each `Outcome` into HCI events.
struct LinkEncryption: Sendable, Hashable {
    private(set) var state = LoopbackEncryption.unencrypted

    /// What a host asked of the link.
    enum Event: Sendable, Hashable {
        /// The central's host sent LE Enable Encryption (§7.8.24).
        case enable(LEEnableEncryption)
        /// The peripheral's host answered the LE Long Term Key Request: a key
        /// (§7.8.25), or nil for the negative reply (§7.8.26). `corrupted`: a test's
        /// fault makes the key fail its MIC check whatever it is.
        case keyReply(UInt128?, corrupted: Bool)
    }

    /// What the controllers do about it.
    enum Outcome: Sendable, Hashable {
        /// Not now (a start already waits for a key, or no key was asked for): Command
        /// Disallowed, and nothing changes.
        case disallowed
        /// LL_ENC_REQ reached the peripheral: its host gets an LE Long Term Key Request
        /// with the central's Rand and EDIV.
        case requestKey(LEEnableEncryption)
        /// Both sides encrypt: Encryption Change on both (§7.7.8).
        case started
        /// The key of an encrypted link changed: Encryption Key Refresh Complete on
        /// both (§7.7.39).
        case refreshed
        /// The peripheral rejected with PIN or Key Missing (LL_REJECT_EXT_IND, Vol 6
        /// Part B §5.1.3.1): Encryption Change with that status to the central alone.
        case keyMissing
        /// The keys differ: the first encrypted packet fails its MIC check and the link
        /// ends with Connection Terminated due to MIC Failure on both sides (§5.1.3.1).
        case micFailure
    }

    /// The one place the state changes.
    mutating func handle(_ event: Event) -> Outcome {
        switch (state, event) {
        case (.awaitingKey, .enable), (.unencrypted, .keyReply), (.encrypted, .keyReply):
            return .disallowed
        case let (.unencrypted, .enable(request)):
            state = .awaitingKey(request, previousKey: nil)
            return .requestKey(request)
        case let (.encrypted(key), .enable(request)):
            state = .awaitingKey(request, previousKey: key)
            return .requestKey(request)
        case (.awaitingKey, .keyReply(nil, _)):
            // A refresh paused encryption before asking (§5.1.3.2); a rejected restart
            // leaves the link up and unencrypted, as Zephyr's controller does.
            state = .unencrypted
            return .keyMissing
        case let (.awaitingKey(request, previousKey), .keyReply(key?, corrupted)):
            guard key == request.longTermKey, !corrupted else {
                state = .unencrypted
                return .micFailure
            }
            state = .encrypted(longTermKey: key)
            return previousKey == nil ? .started : .refreshed
        }
    }
}
