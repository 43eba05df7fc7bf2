import HCI
import Synchronization

extension Controller {
    /// The first value `match` finds in `events` within `timeout`, or `nil` (timed out,
    /// or the controller closed). Subscribe with `events()` before sending the command
    /// whose event this waits for, so it cannot be missed.
    static func firstEvent<T: Sendable>(
        in events: AsyncStream<HCIEvent>, within timeout: Duration, _ match: @escaping @Sendable (HCIEvent) -> T?
    ) async -> T? {
        await withTaskGroup(of: T?.self) { group in
            group.addTask {
                for await event in events {
                    if let found = match(event) { return found }
                }
                return nil
            }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }

    /// Sends Disconnect (Remote User Terminated Connection) on every live connection and
    /// waits up to `timeout` for their Disconnection Complete events.
    func disconnectAll(timeout: Duration) async {
        let handles = await perform(orElse: [UInt16]()) { core in Array(core.connections.keys) }
        guard !handles.isEmpty else { return }
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
}
