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
    public static let defaultCommandTimeout: Duration = .seconds(3)

    let loop: HostLoop
    /// The transport the user named, for messages.
    public let transportName: String
    private let learned = Mutex<ControllerInfo?>(nil)

    /// What `start()` learned; `nil` before it has run.
    public var info: ControllerInfo? { learned.withLock { $0 } }

    func remember(_ info: ControllerInfo) { learned.withLock { $0 = info } }

    private init(loop: HostLoop, transportName: String) {
        self.loop = loop
        self.transportName = transportName
    }

    /// Opens the transport and starts the loop (on `eventLoop`, shared with other hosts
    /// and tasks; a thread of its own when nil). No command is sent yet. With
    /// `capturePath`, every packet both ways is written to that btsnoop file.
    public static func open(_ specification: TransportSpecification, capturePath: String? = nil,
                            on eventLoop: HostEventLoop? = nil) async throws(HCIError) -> Controller {
        Controller(loop: try await HostLoop.start(specification, capturePath: capturePath, on: eventLoop),
                   transportName: specification.description)
    }

    /// Sends `command` and returns its decoded return parameters. A command the
    /// controller acknowledges with Command Status returns once the status is Success
    /// (its outcome arrives later as an event). A non-success status throws
    /// `.commandFailed` with the spec's name of the status.
    public func send<C: HCICommand>(_ command: C, timeout: Duration = Controller.defaultCommandTimeout) async throws(HCIError) -> C.ReturnParameters {
        let answer = try await exchange(command.packet, timeout: timeout)
        switch (answer, C.completion) {
        case let (.complete(complete), .commandComplete):
            let parameters: C.ReturnParameters
            do throws(HCIDecodingError) {
                parameters = try complete.returnParameters(for: C.self)
            } catch {
                throw .malformedResponse(C.opcode, error)
            }
            guard parameters.status.isSuccess else { throw .commandFailed(C.opcode, parameters.status) }
            return parameters
        case let (.status(status), .commandStatus):
            guard status.status.isSuccess else { throw .commandFailed(C.opcode, status.status) }
            do throws(HCIDecodingError) {
                return try C.ReturnParameters(returnParameters: [status.status.rawValue])
            } catch {
                throw .malformedResponse(C.opcode, error)
            }
        case let (.status(status), .commandComplete):
            // A controller may refuse any command with a Command Status error.
            if !status.status.isSuccess { throw .commandFailed(C.opcode, status.status) }
            throw .unexpectedResponse(C.opcode, "Command Status where Command Complete was expected")
        case let (.complete(complete), .commandStatus):
            if let status = complete.status, !status.isSuccess { throw .commandFailed(C.opcode, status) }
            throw .unexpectedResponse(C.opcode, "Command Complete where Command Status was expected")
        }
    }

    /// Sends a raw command packet and returns whichever answer the controller gives.
    public func exchange(_ packet: HCICommandPacket, timeout: Duration = Controller.defaultCommandTimeout) async throws(HCIError) -> CommandAnswerEvent {
        let result: Result<CommandAnswer, HCIError> = await withCheckedContinuation { continuation in
            loop.submit({ core in
                core.sendCommand(packet, timeout: timeout) { result in
                    continuation.resume(returning: result.mapError { error in
                        if case let .commandTimedOut(opcode, _) = error { return .commandTimedOut(opcode, timeout) }
                        return error
                    })
                }
            }, refuse: { continuation.resume(returning: .failure($0)) })
        }
        switch result {
        case let .success(.complete(c)): return .complete(c)
        case let .success(.status(s)): return .status(s)
        case let .failure(error): throw error
        }
    }

    /// Every event other than Command Complete and Command Status, from now until the
    /// controller closes (then the stream finishes).
    public func events() -> AsyncStream<HCIEvent> {
        let (stream, continuation) = AsyncStream<HCIEvent>.makeStream(bufferingPolicy: .bufferingNewest(4096))
        loop.feed(continuation, from: \.eventListeners)
        return stream
    }

    /// Stops the loop and closes the transport; pending commands fail with `.closed`.
    public func close() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            loop.submit({ core in
                core.fail(.closed)
                continuation.resume()
            }, refuse: { _ in continuation.resume() })
        }
    }
}

/// The controller's answer to a command.
public enum CommandAnswerEvent: Sendable {
    case complete(CommandComplete)
    case status(CommandStatus)
}
