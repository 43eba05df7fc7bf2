import SwiftATTHCI
import Synchronization

extension Controller {
    /// How waiting for an event ended.
    enum EventWait<T: Sendable>: Sendable {
        case found(T)
        /// `timeout` passed first.
        case timedOut
        /// The waiting task was cancelled.
        case cancelled
        /// The event stream finished: the controller closed.
        case ended
    }

    /// The first value `match` finds in `events` within `timeout`, or why there was
    /// none. Subscribe with `events()` before sending the command whose event this waits
    /// for, so it cannot be missed.
    static func awaitEvent<T: Sendable>(
        in events: AsyncStream<HCIEvent>, within timeout: Duration, _ match: @escaping @Sendable (HCIEvent) -> T?
    ) async -> EventWait<T> {
        await withTaskGroup(of: EventWait<T>.self) { group in
            group.addTask {
                for await event in events {
                    if let found = match(event) { return .found(found) }
                }
                return Task.isCancelled ? .cancelled : .ended
            }
            group.addTask {
                do {
                    try await Task.sleep(for: timeout)
                    return .timedOut
                } catch {
                    return .cancelled
                }
            }
            let first = await group.next() ?? .cancelled
            group.cancelAll()
            return first
        }
    }

    /// `awaitEvent` for callers that only care whether the event came.
    static func firstEvent<T: Sendable>(
        in events: AsyncStream<HCIEvent>, within timeout: Duration, _ match: @escaping @Sendable (HCIEvent) -> T?
    ) async -> T? {
        if case let .found(value) = await awaitEvent(in: events, within: timeout, match) { return value }
        return nil
    }

    /// Sends Disconnect (Remote User Terminated Connection) on every live connection and
    /// waits up to `timeout` for their Disconnection Complete events.
    func disconnectAll(timeout: Duration) async {
        let handles = await perform(orElse: [UInt16]()) { stack in Array(stack.hci.connections.keys) }
        guard !handles.isEmpty else { return }
        await drainACL(on: handles, within: .seconds(1))
        let events = events()
        for handle in handles { _ = try? await send(Disconnect(connectionHandle: handle)) }
        let remaining = Mutex(Set(handles))
        _ = await Self.firstEvent(in: events, within: timeout) { event -> Bool? in
            guard case let .disconnectionComplete(d) = event else { return nil }
            return remaining.withLock { set in
                set.remove(d.connectionHandle)
                return set.isEmpty ? true : nil
            }
        }
    }

    /// Waits (at most `timeout`) until the controller has sent every ACL packet given for
    /// `handles`: what was written just before a disconnection — the last keys of a
    /// pairing, a final Write Command — reaches the peer, where a Disconnect sent at once
    /// could overtake it in the controller and discard it (Core 5.4 Vol 4 Part E §7.1.6
    /// leaves that to the controller). Woken by Number Of Completed Packets, not by polling.
    func drainACL(on handles: [UInt16], within timeout: Duration) async {
        // Usually nothing is left: then no event stream is opened at all.
        guard await perform(orElse: 0, { stack in handles.reduce(0) { $0 + stack.hci.unsentACLCount(on: $1) } }) > 0 else { return }
        let deadline = ContinuousClock.now + timeout
        // Listening first, then counting again: a completion between the two is not missed.
        let events = events()
        while ContinuousClock.now < deadline {
            let unsent = await perform(orElse: 0) { stack in handles.reduce(0) { $0 + stack.hci.unsentACLCount(on: $1) } }
            guard unsent > 0 else { return }
            let remaining = deadline - ContinuousClock.now
            let freed = await Self.firstEvent(in: events, within: remaining) { event -> Bool? in
                switch event {
                case .numberOfCompletedPackets, .disconnectionComplete: return true
                default: return nil
                }
            }
            if freed == nil { return }
        }
    }
}
