/// Bounded waits for tests: every test that awaits an event must give up after a while
/// rather than hang the run. One mechanism (a race between the wait and a timer) serves
/// them all.
///
/// The default waits are generous: in a full `swift test` run, tests that block
/// cooperative threads (synchronous waits on Bumble's output) can hold up fast tests for
/// seconds. A wait that is met returns at once, so a long bound costs nothing.

/// `body`'s result, or nil when `timeout` passes first (the body is then cancelled).
public func withTimeout<T: Sendable>(
    _ timeout: Duration, _ body: @escaping @Sendable () async throws -> T?
) async throws -> T? {
    try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask { try await body() }
        group.addTask {
            // The bound itself, not a wait for something to happen.
            try await Task.sleep(for: timeout)
            return nil
        }
        let result = try await group.next() ?? nil
        group.cancelAll()
        return result
    }
}

/// The first element `match` picks from `stream` within `timeout`, or nil (the time
/// passed, or the stream ended).
public func first<S: AsyncSequence & Sendable, T: Sendable>(
    _ stream: S, within timeout: Duration = .seconds(30), _ match: @escaping @Sendable (S.Element) -> T?
) async throws -> T? where S.Element: Sendable {
    try await withTimeout(timeout) {
        for try await element in stream { if let found = match(element) { return found } }
        return nil
    }
}

/// The first element `match` picks from `stream` within `timeout`; throws `TimedOut`
/// naming `what` when none comes. Subscribe to the stream before doing what causes the
/// element, so it cannot pass before the wait begins.
public func first<S: AsyncSequence & Sendable, T: Sendable>(
    _ what: String, in stream: S, within timeout: Duration = .seconds(30),
    _ match: @escaping @Sendable (S.Element) -> T?
) async throws -> T where S.Element: Sendable {
    guard let found = try await first(stream, within: timeout, match) else { throw TimedOut(what: what) }
    return found
}

/// Waits until `condition` holds, checking every 2 ms, up to `timeout`; throws
/// `TimedOut` naming `what`. Only for state another thread changes that offers no event
/// to await (a loopback controller's command count, the host's diagnostics): where there
/// is an event, await it with `first`.
public func eventually(_ what: String, within timeout: Duration = .seconds(30), _ condition: () async -> Bool) async throws {
    let deadline = ContinuousClock.now + timeout
    while await !condition() {
        guard ContinuousClock.now < deadline else { throw TimedOut(what: what) }
        // The interval between looks; nothing here can announce the change.
        try await Task.sleep(for: .milliseconds(2))
    }
}
