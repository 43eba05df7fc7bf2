import SwiftATTL2CAP
import Synchronization

/// The channels peers open to one SPSM on this host: `for await channel in listener`.
///
/// While it exists (and until `stop()`), LE Credit Based and Enhanced Credit Based
/// Connection Requests for its SPSM are accepted with its `L2CAPChannelParameters` —
/// refused with the matching result when the link lacks the security they ask for —
/// and every other SPSM is refused with "SPSM not supported". Ends when the host stops.
public struct L2CAPListener: AsyncSequence, Sendable {
    public typealias Element = L2CAPChannel
    public typealias Failure = Never

    /// The SPSM listened on.
    public let psm: SPSM
    let stream: AsyncStream<L2CAPChannel>
    let registration: Registration

    public func makeAsyncIterator() -> AsyncStream<L2CAPChannel>.Iterator { stream.makeAsyncIterator() }

    /// Stops accepting channels on the SPSM (those accepted stay open). Also done when
    /// the listener and its iterators are released.
    public func stop() { registration.stop() }

    /// Unregisters the SPSM once, when stopped or released.
    final class Registration: Sendable {
        let stopper: Mutex<(@Sendable () -> Void)?>

        init(_ stop: @escaping @Sendable () -> Void) {
            stopper = Mutex(stop)
        }

        deinit { stop() }

        func stop() {
            let body = stopper.withLock { body -> (@Sendable () -> Void)? in
                defer { body = nil }
                return body
            }
            body?()
        }
    }
}
