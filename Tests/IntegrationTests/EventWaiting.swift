import BenchSupport
import HCI
import Host


/// The first value `match` extracts from `events` within `timeout`. Subscribe
/// (`controller.events()`) before doing what causes the event: jobs reach the loop in
/// order, so the listener is in place before the command goes out.
func first<T: Sendable>(
    _ what: String, in events: AsyncStream<HCIEvent>, timeout: Duration = .seconds(10),
    _ match: @escaping @Sendable (HCIEvent) -> T?
) async throws -> T {
    let found: T? = try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask {
            for await event in events {
                if let value = match(event) { return value }
            }
            return nil
        }
        group.addTask {
            try await Task.sleep(for: timeout)
            return nil
        }
        let result = try await group.next() ?? nil
        group.cancelAll()
        return result
    }
    guard let found else { throw TimedOut(what: what) }
    return found
}
