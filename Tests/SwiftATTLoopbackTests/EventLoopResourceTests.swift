#if canImport(Glibc)
import Glibc
#endif
@testable import SwiftATTHost
import SwiftATTTransport
import Testing

/// A process out of descriptors or threads gets a typed error from the event loop, not
/// a trap: `pipe(2)` and `pthread_create(3)` made to fail as they do at the limits.
@Suite("Event loop: out of descriptors or threads")
struct EventLoopResourceTests {
    @Test func aFailedPipeIsEventLoopUnavailableNamingIt() {
        #expect(throws: ControllerError.eventLoopUnavailable("pipe", Errno(EMFILE))) {
            _ = try WakeSignal(makePipe: { _ in
                errno = EMFILE
                return -1
            })
        }
        let error = ControllerError.eventLoopUnavailable("pipe", Errno(EMFILE))
        #expect(error.description == "the host's event loop could not start: pipe failed: EMFILE (Too many open files)")
    }

    @Test func aThreadThatCannotStartIsEventLoopUnavailableAndRunsNothing() {
        final class Ran: Sendable {}
        weak var body: Ran?
        #expect(throws: ControllerError.eventLoopUnavailable("pthread_create", Errno(EAGAIN))) {
            let ran = Ran()
            body = ran
            try LoopThread.start(name: "never", create: { _, _, _ in EAGAIN }) { _ = ran }
        }
        // The body handed to the thread that never started was released with it.
        #expect(body == nil)
    }

    @Test func aThreadThatStartsRunsItsBody() async throws {
        let (stream, continuation) = AsyncStream<Void>.makeStream()
        try LoopThread.start(name: "runs") { continuation.finish() }
        for await _ in stream {}
    }
}
