import Synchronization

/// What another thread or task hands over one item at a time (a subprocess's output
/// lines, a stream's events, an exit status), kept in order, with waits that end when
/// the awaited item arrives, when nothing more can come (`finish()`), or at their bound:
/// never after a fixed sleep, never by looking again every few milliseconds.
public final class ArrivalLog<Element: Sendable>: Sendable {
    private struct State {
        var elements: [Element] = []
        var finished = false
        /// Waits to resume at the next change.
        var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
        var nextWaiter = 0
    }

    private let state = Mutex(State())

    public init() {}

    public func append(_ element: Element) {
        change { $0.elements.append(element) }
    }

    /// Nothing more will arrive: waits for more end at once.
    public func finish() {
        change { $0.finished = true }
    }

    /// Everything that has arrived so far, in order.
    public var elements: [Element] { state.withLock { $0.elements } }

    /// How many items have arrived: a position to wait from.
    public var count: Int { state.withLock { $0.elements.count } }

    public var isFinished: Bool { state.withLock { $0.finished } }

    /// The log finished without what a wait was for.
    public struct Ended: Error, CustomStringConvertible {
        public let what: String
        public var description: String { "it ended without \(what)" }
    }

    /// The first item at position `start` or later that `match` takes, with its position;
    /// throws `TimedOut` at the bound or `Ended` once nothing more can come. `what` names
    /// the wait for the error, read only when it is thrown (so it may show the latest
    /// state).
    @discardableResult
    public func first<T>(
        _ what: @autoclosure () -> String, from start: Int = 0, within timeout: Duration = .seconds(30),
        _ match: (Element) -> T?
    ) async throws -> (value: T, position: Int) {
        let deadline = ContinuousClock.now + timeout
        var position = start
        while true {
            let (fresh, finished) = state.withLock { (Array($0.elements.dropFirst(position)), $0.finished) }
            for (offset, element) in fresh.enumerated() {
                if let value = match(element) { return (value, position + offset) }
            }
            position += fresh.count
            if finished { throw Ended(what: what()) }
            guard ContinuousClock.now < deadline else { throw TimedOut(what: what()) }
            await nextChange(after: position, until: deadline)
        }
    }

    /// Returns once the log is finished; throws `TimedOut` at the bound.
    public func end(_ what: @autoclosure () -> String, within timeout: Duration = .seconds(30)) async throws {
        let deadline = ContinuousClock.now + timeout
        while true {
            let (count, finished) = state.withLock { ($0.elements.count, $0.finished) }
            if finished { return }
            guard ContinuousClock.now < deadline else { throw TimedOut(what: what()) }
            await nextChange(after: count, until: deadline)
        }
    }

    private func change(_ body: (inout State) -> Void) {
        let woken = state.withLock { s -> [CheckedContinuation<Void, Never>] in
            body(&s)
            defer { s.waiters.removeAll() }
            return Array(s.waiters.values)
        }
        woken.forEach { $0.resume() }
    }

    /// Returns when the log holds more than `position` items or has finished, or at
    /// `deadline`.
    private func nextChange(after position: Int, until deadline: ContinuousClock.Instant) async {
        let id = state.withLock { s in
            defer { s.nextWaiter += 1 }
            return s.nextWaiter
        }
        let timer = Task {
            // The wait's bound: it wakes the waiter empty-handed at the deadline.
            try? await Task.sleep(until: deadline)
            self.state.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
        }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resumeNow = state.withLock { s -> Bool in
                // The timer may have fired before this waiter was registered.
                if s.elements.count > position || s.finished || ContinuousClock.now >= deadline { return true }
                s.waiters[id] = continuation
                return false
            }
            if resumeNow { continuation.resume() }
        }
        timer.cancel()
    }
}
