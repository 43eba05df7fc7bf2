import SwiftATTTransport
import Synchronization

/// Opens a host's transport on a short-lived thread of its own, so that the loop it
/// will join goes on running its other hosts meanwhile.
///
/// Opening can block for seconds: a `tcp-server:` transport waits for its peer to
/// connect, `hci0` waits for the kernel to finish setting the adapter up, a serial port
/// for the device. On a loop shared by several hosts (`HostEventLoop.shared` is shared by
/// every host started without `on:`), that wait must not stop the others' notifications
/// and deadlines; on Swift's cooperative pool it would hold one of its few threads.
enum TransportOpening {
    /// A transport and its capture file, handed from the opening thread to the loop
    /// thread once: the opening thread lets go of it before the hand-over, so no two
    /// threads ever use it at the same time.
    ///
    /// The hand-over goes through a continuation resumed on the opening thread, which
    /// orders it, but ThreadSanitizer does not see that (the concurrency runtime's atomics
    /// are not instrumented): it would report the loop's reads of the transport (its
    /// descriptor, for `poll`) as racing with the writes that made it. `published`
    /// states the same order where TSan looks: the opening thread stores it after making
    /// both, the loop loads it before taking them. Once per host start; nothing on the
    /// way of a packet.
    final class Opened: @unchecked Sendable {
        private let transport: any HCITransport
        private let capture: BTSnoopFileWriter?
        private let published = Atomic<Bool>(false)

        /// On the opening thread, once both are made.
        init(transport: any HCITransport, capture: BTSnoopFileWriter?) {
            self.transport = transport
            self.capture = capture
            published.store(true, ordering: .releasing)
        }

        /// On the thread that uses them from now on (the loop's, or the one that closes
        /// the transport when the loop refused the host).
        func take() -> (transport: any HCITransport, capture: BTSnoopFileWriter?) {
            precondition(published.load(ordering: .acquiring), "a transport taken before it was opened")
            return (transport, capture)
        }
    }

    /// The thread's name while it opens, as `top -H` shows it.
    static let threadName = "swift-att open"

    /// Opens `specification` (and, with `capturePath`, the btsnoop file every packet is
    /// written to) and returns them once open.
    static func open(_ specification: TransportSpecification, capturePath: String?) async throws(ControllerError) -> Opened {
        let result: Result<Opened, ControllerError> = await withCheckedContinuation { continuation in
            do throws(ControllerError) {
                try LoopThread.start(name: threadName) {
                    do throws(TransportError) {
                        let capture = try capturePath.map { path throws(TransportError) in try BTSnoopFileWriter(path: path) }
                        let transport = try specification.open(acceptTimeout: .seconds(30))
                        continuation.resume(returning: .success(Opened(transport: transport, capture: capture)))
                    } catch {
                        continuation.resume(returning: .failure(.transport(error)))
                    }
                }
            } catch {
                continuation.resume(returning: .failure(error))
            }
        }
        return try result.get()
    }
}
