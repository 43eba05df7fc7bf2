import SwiftATTHost

/// The loop thread a command's work runs on (`main.swift`): `HostEventLoop.shared`,
/// where every host the command starts runs too. Nil when the process could not start
/// the thread; the work then runs on Swift's pool and the host's start says why.
enum CommandLoop {
    static let executor: HostEventLoop? = try? HostEventLoop.shared
}

extension Task where Failure == Never {
    /// Starts a task beside the command's main one, on the same loop thread.
    ///
    /// A plain `Task {}` does not inherit the executor preference of the task that makes
    /// it: it would run on Swift's pool, so every event it passes on would cross threads
    /// twice, and what it prints would race the main task's own lines (a link's "paired"
    /// printed after the bearers the pairing had to come before). On the one loop thread
    /// jobs run in the order the host resumed them: a task that prints or forwards an
    /// event the host yielded runs before the main task the same loop turn resumed after it.
    @discardableResult
    static func onCommandLoop(_ operation: sending @escaping () async -> Success) -> Task<Success, Never> {
        Task(executorPreference: CommandLoop.executor, operation: operation)
    }
}
