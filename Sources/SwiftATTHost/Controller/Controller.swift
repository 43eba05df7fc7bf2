import SwiftATTHCI
import Synchronization
import SwiftATTTransport

/// A controller reached through a transport, driven by its own event loop.
///
/// The conversation of Core 5.4 Vol 4 Part E §4.4: commands go out under the
/// controller's flow control, each answer is matched to its command, every command has a
/// timeout that fails it with a typed error naming it, and every other event reaches the
/// listeners of `events()`. `Sendable`: any task may send commands concurrently.
public final class Controller: Sendable {
    /// How long a command may go unanswered before it fails.
    ///
    /// A computed constant, not a stored one: every `send` that takes the default reads
    /// it, and a stored static is read through its lazy initializer's accessor.
    @inlinable public static var defaultCommandTimeout: Duration { .seconds(3) }

    let loop: HostLoop
    /// The transport the user named, for messages.
    public let transportName: String
    private let learned = Mutex<ControllerInfo?>(nil)
    /// `configureSecurity`'s settings, for the calls that read them off the loop.
    let securitySettings = Mutex(SecuritySettings())
    /// The controller's resolving list as the host programmed it; nil when the host
    /// resolves (`Controller+RadioStart`).
    let resolvingList = Mutex<ResolvingListState?>(nil)

    /// What `start()` learned; `nil` before it has run.
    public var info: ControllerInfo? { learned.withLock { $0 } }

    func remember(_ info: ControllerInfo) { learned.withLock { $0 = info } }

    private init(loop: HostLoop, transportName: String) {
        self.loop = loop
        self.transportName = transportName
    }

    /// The loop whose thread runs this host: tasks that prefer it
    /// (`withTaskExecutorPreference(controller.eventLoop)`) send commands and take
    /// their answers and the host's values without a hand-off between threads.
    public var eventLoop: HostEventLoop { loop.eventLoop }

    /// Opens the transport (on a thread of its own, so that a transport waiting for its
    /// peer holds up no other host) and runs the host on `eventLoop`, shared with other
    /// hosts and tasks (`HostEventLoop.shared` when nil). No command is sent yet. With
    /// `capturePath`, every packet both ways is written to that btsnoop file.
    public static func open(_ specification: TransportSpecification, capturePath: String? = nil,
                            on eventLoop: HostEventLoop? = nil) async throws(ControllerError) -> Controller {
        Controller(loop: try await HostLoop.start(specification, capturePath: capturePath, on: eventLoop),
                   transportName: specification.description)
    }

    /// Sends `command` and returns its decoded return parameters. A command the
    /// controller acknowledges with Command Status returns once the status is Success
    /// (its outcome arrives later as an event). A non-success status throws
    /// `.hci(.commandFailed)` with the spec's name of the status.
    ///
    /// Inlinable, with what it calls, so that a caller in another module runs it
    /// specialized for its command: unspecialized, looking up `C`'s metadata and
    /// conformances cost more than the rest of the host's work for a round trip.
    ///
    /// `nonisolated(nonsending)`, as `exchange` is: it runs on the caller's executor.
    /// A plain `nonisolated` async function hops to the generic executor on entry and
    /// again after its await, and for a task that prefers the host's loop each hop
    /// looks the preference up under the task's status-record lock (some 250
    /// instructions of a command round trip, measured with callgrind).
    @inlinable
    nonisolated(nonsending)
    public func send<C: HCICommand>(_ command: C, timeout: Duration = Controller.defaultCommandTimeout) async throws(ControllerError) -> C.ReturnParameters {
        // The answer is decoded on the loop, where it lies (`CommandReply`); the
        // continuation is made as `answer(to:timeout:)` makes its own, for the same reason.
        try await _unsafeInheritExecutor_withUnsafeContinuation { continuation in
            submit(command.packet, timeout: timeout, reply: CommandReply(continuation, for: C.self))
        }.get()
    }

    /// Hands a `send` to the loop: not inlinable, so that the loop stays out of the
    /// module's interface.
    @usableFromInline
    func submit(_ packet: consuming HCICommandPacket, timeout: Duration, reply: consuming CommandReply) {
        loop.submit(packet, timeout: timeout, waiter: .reply(consume reply, timeout: timeout))
    }

    /// Sends a raw command packet and returns whichever answer the controller gives.
    nonisolated(nonsending)
    public func exchange(_ packet: HCICommandPacket, timeout: Duration = Controller.defaultCommandTimeout) async throws(ControllerError) -> HCICommandAnswer {
        try await answer(to: packet, timeout: timeout).get()
    }

    /// An unsafe continuation, handed to the loop as it is: a checked one allocates its
    /// canary, and a closure around it another, on every command. It is resumed exactly
    /// once: by the command's answer, its timeout, the host's shutdown, or the loop's
    /// refusal (`LoopRunner.Work.command`).
    ///
    /// Made by the standard library's executor-inheriting form. `withUnsafeContinuation`
    /// takes the caller's isolation and switches to it first: for a nonisolated caller
    /// (every `swift-att` command; a task that prefers the loop) a switch to the generic
    /// executor, which looks the task's preference up under its status-record lock (some
    /// 300 instructions of a round trip, measured with callgrind). The body only hands
    /// the packet to the loop, which is safe from any executor. Either form resumes the
    /// caller on the generic executor, and this function, running where its caller runs,
    /// then returns to the caller's executor: for a task that prefers the loop, the loop;
    /// for a caller on an actor, that actor (`ActorCallerTests`). (Made with the actor's
    /// isolation, the continuation still resumed on the generic executor first, through
    /// Swift's pool: measured, an actor gains nothing from it.)
    @usableFromInline
    nonisolated(nonsending)
    func answer(to packet: HCICommandPacket, timeout: Duration) async -> Result<HCICommandAnswer, ControllerError> {
        await _unsafeInheritExecutor_withUnsafeContinuation { continuation in
            loop.submit(packet, timeout: timeout, waiter: .task(continuation, timeout: timeout))
        }
    }

    /// Every event other than Command Complete and Command Status, from now until the
    /// controller closes (then the stream finishes).
    public func events() -> AsyncStream<HCIEvent> {
        let (stream, continuation) = AsyncStream<HCIEvent>.makeStream(bufferingPolicy: .bufferingNewest(4096))
        loop.feed(continuation, from: \.hci.eventListeners)
        return stream
    }

    /// Stops the loop and closes the transport; pending commands fail with `.closed`.
    /// What the bonds' moving parts last changed to (sign counters, the GATT server's
    /// state for bonded clients) is written to the bond store as the host shuts down, so
    /// that the storage may be closed as soon as this returns. Returns once the host has shut down and its
    /// transport is closed: the same adapter can be opened again at once.
    public func close() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            loop.submit({ stack in
                stack.hci.fail(.closed)
                // The loop retires the stopped host after this job: resumed from there.
                stack.shutdownWaiters.append { continuation.resume() }
            }, refuse: { _ in continuation.resume() })
        }
    }
}
