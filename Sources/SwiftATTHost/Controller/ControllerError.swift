import SwiftATTHCI
import SwiftATTTransport

/// Why the host could not do what was asked of the controller: the controller's own
/// answer (an `HCIError`), the transport under it, or the host having been closed.
///
/// Every call that reaches the controller throws this; so does every call once the host
/// has stopped, with the reason it stopped.
public enum ControllerError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The controller refused or did not answer a command, answered it wrongly, or
    /// reported a hardware error.
    case hci(HCIError)
    /// The transport failed or closed; everything pending fails with it.
    case transport(TransportError)
    /// The host was closed by its owner.
    case closed
    /// The call needs what the start-up sequence learns (`Controller.start()`), and it
    /// has not run: the call is named.
    case notStarted(String)
    /// The event loop could not start: the system call named failed, the process being
    /// out of descriptors (`pipe`) or threads (`pthread_create`).
    case eventLoopUnavailable(String, Errno)
    /// `start(storage:)` could not get this adapter's identity and bonds from the
    /// storage (a file in use or unreadable, or a new identity that could not be kept).
    case securityStorage(SecurityStorageError)

    public var description: String {
        switch self {
        case let .hci(error): return error.description
        case let .transport(error): return error.description
        case .closed: return "the host was closed"
        case let .notStarted(call): return "\(call) before start(): the controller's start-up sequence has not run"
        case let .eventLoopUnavailable(call, errno):
            return "the host's event loop could not start: \(call) failed: \(errno)"
        case let .securityStorage(error): return error.description
        }
    }
}
