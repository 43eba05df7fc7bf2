import SwiftATTHost
import Synchronization

/// Signals and standard input for `swift-att central` (signals alone for `l2cap`), handed
/// to whichever flow is waiting: each `subscribe()` gets its own stream of what arrives
/// from then on. What arrives while nobody listens (lines typed ahead while the
/// controller starts) is kept for the next subscriber, so no input is lost.
final class CentralInputs: Sendable {
    private struct State {
        var listeners: [Int: AsyncStream<WatchedInput>.Continuation] = [:]
        var backlog: [WatchedInput] = []
    }

    private let state = Mutex(State())
    private let nextID = Atomic<Int>(0)

    private init() {}

    /// Routes SIGINT/SIGTERM here (and stdin lines, when `readingLines`).
    static func start(readingLines: Bool) -> CentralInputs {
        let inputs = CentralInputs()
        _ = InputWatcher.installSignalHandlers()
        InputWatcher.start(readingLines: readingLines) { input in inputs.broadcast(input) }
        return inputs
    }

    func subscribe() -> AsyncStream<WatchedInput> {
        let (stream, continuation) = AsyncStream<WatchedInput>.makeStream()
        let id = nextID.add(1, ordering: .relaxed).newValue
        state.withLock { state in
            for input in state.backlog { continuation.yield(input) }
            state.backlog.removeAll()
            state.listeners[id] = continuation
        }
        continuation.onTermination = { [weak self] _ in _ = self?.state.withLock { $0.listeners.removeValue(forKey: id) } }
        return stream
    }

    private func broadcast(_ input: WatchedInput) {
        state.withLock { state in
            if state.listeners.isEmpty { return state.backlog.append(input) }
            for listener in state.listeners.values { listener.yield(input) }
        }
    }
}

/// What a waiting flow hears next: a value from the peer, its stream ending, outside
/// input, or the time it was given running out.
enum CentralEvent: Sendable {
    case value(GATTNotification)
    case valuesEnded((any Error)?)
    case input(WatchedInput)
    case timeUp
}

/// Merges a peer's values, the command's inputs and an optional deadline into one stream.
/// Releasing the stream stops the merging (and releases `values`, which unsubscribes).
func centralEvents(
    values: GATTNotificationStream?, inputs: CentralInputs, duration: Duration?
) -> AsyncStream<CentralEvent> {
    let (stream, continuation) = AsyncStream<CentralEvent>.makeStream()
    let watched = inputs.subscribe()
    var tasks: [Task<Void, Never>] = []
    if let values {
        tasks.append(Task {
            do {
                for try await value in values { continuation.yield(.value(value)) }
                continuation.yield(.valuesEnded(nil))
            } catch {
                continuation.yield(.valuesEnded(error))
            }
        })
    }
    tasks.append(Task {
        for await input in watched { continuation.yield(.input(input)) }
    })
    if let duration {
        tasks.append(Task {
            try? await Task.sleep(for: duration)
            if !Task.isCancelled { continuation.yield(.timeUp) }
        })
    }
    let started = tasks
    continuation.onTermination = { _ in for task in started { task.cancel() } }
    return stream
}
