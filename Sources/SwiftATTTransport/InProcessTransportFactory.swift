/// Opens a transport whose controller lives in this process: an emulated controller
/// (the loopback link of the `LoopbackController` target) or a test double.
///
/// A host's event loop opens its transport on its own thread and is its only user, so
/// the factory hands out a fresh, loop-owned object each time rather than sharing one.
/// Compared by identity: two factories are the same transport only if they are the
/// same object.
public final class InProcessTransportFactory: Sendable, Hashable {
    /// The name transports from this factory report, for messages.
    public let name: String
    private let make: @Sendable () throws(TransportError) -> any HCITransport

    /// A factory named `name` (for messages) whose `open` makes a new transport each time a
    /// host's loop opens one.
    public init(name: String, open: @escaping @Sendable () throws(TransportError) -> any HCITransport) {
        self.name = name
        make = open
    }

    /// A new transport to the controller.
    public func open() throws(TransportError) -> any HCITransport { try make() }

    public static func == (a: InProcessTransportFactory, b: InProcessTransportFactory) -> Bool { a === b }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
