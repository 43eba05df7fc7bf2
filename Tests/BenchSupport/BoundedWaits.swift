/// Bounded waits for tests: every test that awaits an event must give up after a while
/// rather than hang the run. One mechanism (a race between the wait and a timer) serves
/// them all.

/// `body`'s result, or nil when `timeout` passes first (the body is then cancelled).
public func withTimeout<T: Sendable>(
    _ timeout: Duration, _ body: @escaping @Sendable () async throws -> T?
) async throws -> T? {
    try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask { try await body() }
        group.addTask {
            try await Task.sleep(for: timeout)
            return nil
        }
        let result = try await group.next() ?? nil
        group.cancelAll()
        return result
    }
}

/// The first element `match` picks from `stream` within `timeout`, or nil (the time
/// passed, or the stream ended). The default wait is generous: in a full `swift test`
/// run, tests that block cooperative threads (synchronous waits on Bumble's output) can
/// hold up fast tests for seconds.
public func first<S: AsyncSequence & Sendable, T: Sendable>(
    _ stream: S, within timeout: Duration = .seconds(30), _ match: @escaping @Sendable (S.Element) -> T?
) async throws -> T? where S.Element: Sendable {
    try await withTimeout(timeout) {
        for try await element in stream { if let found = match(element) { return found } }
        return nil
    }
}
