#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import Testing
@testable import swift_att

/// Tasks a command starts beside its main one (forwarding a host's events, printing its
/// security report) run on the command's loop thread, so what they print of an event keeps
/// its place among the main task's lines.
struct CommandLoopTests {
    @Test func aTaskBesideTheCommandRunsOnTheCommandsLoopThread() async throws {
        let executor = try #require(CommandLoop.executor)
        await withTaskExecutorPreference(executor) {
            let command = pthread_self()
            let beside = await Task.onCommandLoop { pthread_self() }.value
            #expect(pthread_equal(command, beside) != 0)
        }
    }

    /// As the host does on its loop: an event yielded to a stream, then the task that
    /// waits on the action resumed. The task beside prints the event before the main task
    /// goes on, every time (a plain `Task {}` on the pool loses this race now and then).
    @Test func anEventPrintedBesideComesBeforeWhatTheCommandDoesNext() async throws {
        let executor = try #require(CommandLoop.executor)
        let lines = Lines()
        let rounds = 300
        await withTaskExecutorPreference(executor) {
            for round in 0..<rounds {
                let (events, feed) = AsyncStream<Int>.makeStream()
                let printer = Task.onCommandLoop {
                    for await event in events { lines.append("event \(event)") }
                }
                await withUnsafeContinuation { (waiting: UnsafeContinuation<Void, Never>) in
                    Task.onCommandLoop {
                        feed.yield(round)
                        waiting.resume()
                    }
                }
                lines.append("action \(round)")
                feed.finish()
                await printer.value
            }
        }
        let expected = (0..<rounds).flatMap { ["event \($0)", "action \($0)"] }
        let printed = lines.all
        #expect(printed.count == expected.count)
        let outOfOrder = zip(printed, expected).first { $0 != $1 }
        #expect(outOfOrder == nil, "first line out of order: \(outOfOrder.map { "\($0.0) where \($0.1) belongs" } ?? "")")
    }

    final class Lines: Sendable {
        private let lines = Mutex<[String]>([])
        func append(_ line: String) { lines.withLock { $0.append(line) } }
        var all: [String] { lines.withLock { $0 } }
    }
}
