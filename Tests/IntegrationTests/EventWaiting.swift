import BenchSupport
import SwiftATTHCI
import SwiftATTHost


/// The first value `match` extracts from `events` within `timeout`. Subscribe
/// (`controller.events()`) before doing what causes the event: jobs reach the loop in
/// order, so the listener is in place before the command goes out.
func first<T: Sendable>(
    _ what: String, in events: AsyncStream<HCIEvent>, timeout: Duration = .seconds(10),
    _ match: @escaping @Sendable (HCIEvent) -> T?
) async throws -> T {
    let found: T? = try await withTimeout(timeout) {
        for await event in events {
            if let value = match(event) { return value }
        }
        return nil
    }
    guard let found else { throw TimedOut(what: what) }
    return found
}
