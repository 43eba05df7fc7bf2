import SwiftATTL2CAP
import Synchronization

/// The buffer between the loop thread, which appends the SDUs a credit-based channel
/// reassembles, and the task reading them (`L2CAPChannel.sdus`).
///
/// Like `NotificationChannel`, handed over a batch at a time: the loop appends what one
/// read of the transport completed and wakes a waiting reader once; the reader swaps the
/// whole buffer out. Unlike it, nothing is ever dropped: the channel's credits bound
/// what can arrive (the window), and they come back only as the reader reports the SDUs
/// consumed.
final class SDUInbox: Sendable {
    typealias Waiter = UnsafeContinuation<Void, Never>

    private struct State {
        var buffer: [[UInt8]] = []
        var waiter: Waiter?
        /// Set once the loop ended the stream: nil for a clean end (the peer or this
        /// host closed the channel), or the error the reader gets.
        var ending: L2CAPChannelError??
        var cancelled = false
        /// Why the channel ended, once it has (kept for the channel's callers after
        /// the loop let go of it).
        var closeReason: CreditBasedChannelCloseReason?
        /// What the channel carried, kept when the loop let go of it.
        var statistics: L2CAPChannelStatistics?
    }

    private let state = Mutex(State())

    // MARK: The loop's side

    /// Queues the SDUs the loop staged, leaving `batch` empty; returns the waiting
    /// reader to resume.
    func append(contentsOf batch: inout [[UInt8]]) -> Waiter? {
        guard !batch.isEmpty else { return nil }
        defer { batch.removeAll(keepingCapacity: true) }
        return state.withLock { s in
            guard s.ending == nil, !s.cancelled else { return nil }
            if s.buffer.isEmpty {
                swap(&s.buffer, &batch)
            } else {
                s.buffer.append(contentsOf: batch)
            }
            defer { s.waiter = nil }
            return s.waiter
        }
    }

    /// Ends the stream: the reader gets what is buffered, then `error` (or the end).
    func finish(throwing error: L2CAPChannelError?, reason: CreditBasedChannelCloseReason) {
        let waiter = state.withLock { s -> Waiter? in
            guard s.ending == nil else { return nil }
            s.ending = .some(error)
            s.closeReason = reason
            defer { s.waiter = nil }
            return s.waiter
        }
        waiter?.resume()
    }

    /// The loop let go of the channel: its last figures stay here.
    /// Everything the reader has not taken, for a host reader taking the channel over
    /// (`CreditBasedChannels.attach`).
    func takeAll() -> [[UInt8]] {
        state.withLock { state in
            let buffer = state.buffer
            state.buffer = []
            return buffer
        }
    }

    func keep(_ statistics: L2CAPChannelStatistics) {
        state.withLock { $0.statistics = statistics }
    }

    var finalStatistics: L2CAPChannelStatistics? { state.withLock { $0.statistics } }

    /// Why the channel ended; nil while it is open.
    var closeReason: CreditBasedChannelCloseReason? { state.withLock { $0.closeReason } }

    // MARK: The reader's side

    enum Outcome {
        case sdus
        case ended(L2CAPChannelError?)
        case cancelled
    }

    /// Waits until SDUs are buffered (swapped into `batch`, which must be empty), the
    /// stream ended, or the task was cancelled.
    func take(into batch: inout [[UInt8]], isolation actor: isolated (any Actor)? = #isolation) async -> Outcome {
        while true {
            if let outcome = poll(into: &batch) { return outcome }
            await withTaskCancellationHandler {
                await withUnsafeContinuation { (waiter: Waiter) in
                    let ready = state.withLock { s -> Bool in
                        if !s.buffer.isEmpty || s.ending != nil || s.cancelled { return true }
                        s.waiter = waiter
                        return false
                    }
                    if ready { waiter.resume() }
                }
            } onCancel: {
                let waiter = state.withLock { s -> Waiter? in
                    s.cancelled = true
                    defer { s.waiter = nil }
                    return s.waiter
                }
                waiter?.resume()
            }
        }
    }

    private func poll(into batch: inout [[UInt8]]) -> Outcome? {
        state.withLock { s -> Outcome? in
            if !s.buffer.isEmpty {
                swap(&s.buffer, &batch)
                return .sdus
            }
            if let ending = s.ending {
                s.ending = .some(nil)
                return .ended(ending)
            }
            if s.cancelled {
                // A later iteration (another task) may read on.
                s.cancelled = false
                return .cancelled
            }
            return nil
        }
    }
}
