import SwiftATTCore
import SwiftATTSMP

/// Repeated attempts (Core 5.4 Vol 3 Part H §2.3.6): after a pairing with a peer fails,
/// the next attempt from that peer waits an interval that doubles with every further
/// failure, so a peer guessing passkeys or flooding Pairing Requests is slowed down
/// exponentially. A request inside the interval is answered with Pairing Failed:
/// Repeated Attempts, without starting a pairing.
///
/// Pure state, kept by the host across links (a peer that reconnects is still the same
/// peer). Only failures that say something about the peer count: an authentication
/// value that did not match, a malformed or out-of-order PDU, a rejected number or a
/// cancelled passkey; a user who declines a request or a timeout do not. The table
/// holds at most `capacity` peers: an attacker cycling addresses pushes out only its
/// own oldest entries.
public struct PairingAttemptThrottle: Sendable {
    /// The wait after a peer's first counted failure.
    public var initialInterval: Duration
    /// The longest wait, however many failures follow.
    public var maximumInterval: Duration
    /// The most peers remembered at once; the oldest entry goes first.
    public let capacity: Int

    struct Entry: Sendable {
        var failures: Int
        var until: MonotonicInstant
    }

    var entries: [BluetoothAddress: Entry] = [:]

    /// A throttle waiting `initialInterval`, then doubling up to `maximumInterval`, for up to
    /// `capacity` peers.
    public init(initialInterval: Duration = .seconds(2), maximumInterval: Duration = .seconds(64), capacity: Int = 64) {
        self.initialInterval = initialInterval
        self.maximumInterval = maximumInterval
        self.capacity = max(1, capacity)
    }

    /// Whether `peer` may start a pairing now.
    public func admits(_ peer: BluetoothAddress, now: MonotonicInstant) -> Bool {
        guard let entry = entries[peer] else { return true }
        return now >= entry.until
    }

    /// Notes how a pairing with `peer` ended.
    public mutating func record(_ failure: PairingFailure, peer: BluetoothAddress, now: MonotonicInstant) {
        guard Self.counts(failure) else { return }
        var entry = entries[peer] ?? Entry(failures: 0, until: now)
        entry.failures += 1
        var interval = initialInterval
        for _ in 1..<min(entry.failures, 16) { interval = min(interval * 2, maximumInterval) }
        entry.until = now + interval
        if entries[peer] == nil && entries.count >= capacity,
           let oldest = entries.min(by: { $0.value.until < $1.value.until })?.key {
            entries[oldest] = nil
        }
        entries[peer] = entry
    }

    /// A successful pairing forgets the peer's failures.
    public mutating func recordSuccess(peer: BluetoothAddress) {
        entries[peer] = nil
    }

    static func counts(_ failure: PairingFailure) -> Bool {
        // What this device detected; a peer reporting our failure says nothing of it.
        guard case let .sent(reason) = failure else { return false }
        switch reason {
        case .confirmValueFailed, .dhKeyCheckFailed, .numericComparisonFailed, .passkeyEntryFailed,
             .invalidParameters, .unspecifiedReason, .commandNotSupported:
            return true
        default:
            return false
        }
    }
}
