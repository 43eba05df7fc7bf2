import SwiftATTHost
import Synchronization

/// What the soak peripheral's event stream said, counted by one task reading it, so the
/// soak can wait for "every central subscribed", "room to send again" or "every
/// indication confirmed" without reading the stream itself while it sends.
final class PeripheralTally: Sendable {
    struct Counts: Sendable {
        var connections = 0
        var subscriptions = 0
        var readyToUpdate = 0
        var confirmations = 0
        var disconnections = 0
    }

    private let state = Mutex(Counts())
    /// Rung after every counted event and once a second; a waiter re-checks its
    /// condition and its deadline at each ring. Holding one ring is enough: the
    /// condition is re-read.
    private let rings: AsyncStream<Void>
    private let bell: AsyncStream<Void>.Continuation
    private let reader = Mutex<Task<Void, Never>?>(nil)
    /// The once-a-second ring that bounds every wait (to within a second): one timer
    /// for the run rather than one per wait for room, of which there are thousands,
    /// each cancelled long before its 35 s deadline.
    private let ticker: Task<Void, Never>

    init(events: AsyncStream<PeripheralEvent>) {
        (rings, bell) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let bell = self.bell
        ticker = Task {
            while (try? await Task.sleep(for: .seconds(1))) != nil { bell.yield() }
        }
        reader.withLock {
            $0 = Task { [weak self] in
                for await event in events {
                    guard let self else { return }
                    self.state.withLock { counts in
                        switch event {
                        case .connected: counts.connections += 1
                        case let .subscriptionChanged(change) where change.cause == .written && !change.configuration.isEmpty:
                            counts.subscriptions += 1
                        case .readyToUpdate: counts.readyToUpdate += 1
                        case .indicationConfirmed: counts.confirmations += 1
                        case .disconnected: counts.disconnections += 1
                        default: break
                        }
                    }
                    bell.yield()
                }
            }
        }
    }

    deinit {
        reader.withLock { $0?.cancel() }
        ticker.cancel()
    }

    var counts: Counts { state.withLock { $0 } }

    /// Waits until `condition` holds of the counts (true) or `limit` has passed (false).
    /// One waiter at a time.
    func wait(for limit: Duration, until condition: (Counts) -> Bool) async -> Bool {
        if condition(counts) { return true }
        let deadline = ContinuousClock.now + limit
        for await _ in rings {
            if condition(counts) { return true }
            if ContinuousClock.now >= deadline { return false }
        }
        return false
    }
}
