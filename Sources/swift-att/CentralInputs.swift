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
        /// Questions waiting for their answer, first asked first answered: the next line
        /// goes to the first of them alone.
        var askers: [(id: Int, answer: CheckedContinuation<String?, Never>)] = []
    }

    private let state = Mutex(State())
    private let nextID = Atomic<Int>(0)

    /// Inputs nothing feeds yet: `watch` starts the watching (the shell's line editor,
    /// made in between, hands its lines to `broadcast`).
    init() {}

    /// Routes SIGINT/SIGTERM here (and stdin lines, when `readingLines`).
    static func start(readingLines: Bool) -> CentralInputs {
        let inputs = CentralInputs()
        inputs.watch(readingLines: readingLines)
        return inputs
    }

    /// Routes SIGINT/SIGTERM here from now on, and stdin's lines when `readingLines`.
    func watch(readingLines: Bool) {
        _ = InputWatcher.installSignalHandlers()
        InputWatcher.start(readingLines: readingLines) { input in self.broadcast(input) }
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

    /// Asks `question` (on the shell's prompt when its editor runs, else on standard
    /// error) and returns the next line, which nobody else gets — a passkey typed in the
    /// shell is an answer, not a command. A line typed ahead answers at once. `nil` on
    /// Ctrl-C, the end of input, or when the asking task is cancelled.
    func answer(_ question: String) async -> String? {
        let editor = LineEditor.active.withLock { $0 }
        if let editor { editor.ask(question) } else { Output.writeError(question) }
        defer { editor?.answered() }
        let id = nextID.add(1, ordering: .relaxed).newValue
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (answer: CheckedContinuation<String?, Never>) in
                let early: String?? = state.withLock { state in
                    if Task.isCancelled { return .some(nil) }
                    if let index = state.backlog.firstIndex(where: { if case .line = $0 { true } else { false } }),
                       case let .line(text) = state.backlog.remove(at: index) {
                        return .some(text)
                    }
                    state.askers.append((id, answer))
                    return .none
                }
                if let early { answer.resume(returning: early) }
            }
        } onCancel: {
            let asker = state.withLock { state in
                state.askers.firstIndex { $0.id == id }.map { state.askers.remove(at: $0) }
            }
            asker?.answer.resume(returning: nil)
        }
    }

    func broadcast(_ input: WatchedInput) {
        let answered: (CheckedContinuation<String?, Never>, String?)? = state.withLock { state in
            if !state.askers.isEmpty {
                switch input {
                case let .line(text): return (state.askers.removeFirst().answer, text)
                case .signal, .endOfInput:
                    // Ctrl-C gives up the question, and is heard by the listeners too.
                    let asker = state.askers.removeFirst()
                    for listener in state.listeners.values { listener.yield(input) }
                    return (asker.answer, nil)
                }
            }
            if state.listeners.isEmpty {
                state.backlog.append(input)
                return nil
            }
            for listener in state.listeners.values { listener.yield(input) }
            return nil
        }
        if let (asker, text) = answered { asker.resume(returning: text) }
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

/// Merges a peer's values, the command's inputs and an optional deadline into one queue,
/// each source fed in by a task on the command's loop. `stop()` the queue when done: that
/// stops the merging (and releases `values`, which unsubscribes).
func centralEvents(
    values: GATTNotificationStream?, inputs: CentralInputs, duration: Duration?
) -> CentralEventQueue {
    let events = CentralEventQueue()
    let watched = inputs.subscribe()
    if let values {
        events.feed { events in
            do {
                for try await value in values { events.yield(.value(value)) }
                events.yield(.valuesEnded(nil))
            } catch {
                events.yield(.valuesEnded(error))
            }
        }
    }
    events.feed { events in
        for await input in watched { events.yield(.input(input)) }
    }
    if let duration {
        events.feed { events in
            try? await Task.sleep(for: duration)
            if !Task.isCancelled { events.yield(.timeUp) }
        }
    }
    return events
}
