/// Why a soak could not go on.
struct SoakError: Error, CustomStringConvertible {
    let description: String
}

/// Runs `body`, or gives up after `limit` (cancelling it) and throws "`what` took longer
/// than `limit`": every wait of the soak is bounded, so a stuck link fails the run
/// instead of hanging it.
func within<T: Sendable>(_ limit: Duration, _ what: String, _ body: @escaping @Sendable () async throws -> T) async throws -> T {
    try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask { try await body() }
        group.addTask {
            // The bound itself, not a wait for something to happen.
            try await Task.sleep(for: limit)
            return nil
        }
        defer { group.cancelAll() }
        guard let first = try await group.next(), let value = first else {
            throw SoakError(description: "\(what) took longer than \(limit)")
        }
        return value
    }
}
