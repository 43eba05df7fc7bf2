import HCI

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
}
