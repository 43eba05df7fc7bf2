import SwiftATTCore
import SwiftATTL2CAP

/// A signaling request this host sent and waits to hear answered, by its identifier.
enum PendingSignalingRequest {
    /// An LE Credit Based Connection Request (one CID) or a Credit Based Connection
    /// Request (one to five).
    struct Open {
        var mode: CreditBasedFlowControlMode
        var psm: SPSM
        var parameters: L2CAPChannelParameters
        var localCIDs: [UInt16]
        var controller: Controller
        var deadline: MonotonicInstant
        /// The wait `deadline` ends: the response timeout, or the extended one once the
        /// peer has answered "pending" (Core 5.4 Vol 3 Part A §6.2.2).
        var timeout: Duration
        /// The peer has answered "pending" at least once.
        var pendingAnswered = false
        var completion: (Result<[L2CAPChannel], L2CAPChannelError>) -> Void
    }

    case open(Open)
    /// A Credit Based Reconfigure Request for these channels of this host.
    case reconfigure(channels: [ChannelKey], mtu: UInt16, mps: UInt16, deadline: MonotonicInstant,
                     completion: (L2CAPChannelError?) -> Void)
    /// A Disconnection Request for the channel at `localCID` (that channel: `serial`).
    case disconnect(localCID: UInt16, serial: Int, deadline: MonotonicInstant)

    var deadline: MonotonicInstant {
        switch self {
        case let .open(open): return open.deadline
        case let .disconnect(_, _, deadline): return deadline
        case let .reconfigure(_, _, _, deadline, _): return deadline
        }
    }

    /// The link went down before the answer.
    func fail(_ error: L2CAPChannelError) {
        switch self {
        case let .open(open): open.completion(.failure(error))
        case let .reconfigure(_, _, _, _, completion): completion(error)
        case .disconnect: break
        }
    }
}
