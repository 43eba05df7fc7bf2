import SwiftATTGATT
import SwiftATTHCI

/// What the host does when the controller reports a Hardware Error (Core 5.4 Vol 4
/// Part E §7.7.16): the controller has failed and must be reset, and a reset ends its
/// links (§7.3.2), so nothing pending can complete any more.
extension HostStack {
    /// Fails every pending command with `.hardwareError(code)`, ends every link (its
    /// GATT calls fail with `DisconnectReason.hardwareError(code)`, listeners hear
    /// `.disconnected(_, .hardwareFailure)`), forgets ACL flow and partial frames, and,
    /// when the host was started, sends HCI_Reset and hands over to `recovery` to run the
    /// rest of the start-up sequence.
    func hardwareError(_ code: UInt8) {
        hci.controllerFailed(.hci(.hardwareError(code)))
        announce(.hardwareError(code))
        attributes.detachAll(reason: .hardwareFailure, cause: .hardwareError(code))
        security.disconnectedAll()
        // No subscriber's queue is full any more: an `updateValue` refused before may go on.
        attributes.signalRoomIfWaiting()
        l2cap.controllerReset()
        guard let recovery else { return }
        hci.send(Reset().packet, timeout: .seconds(5)) { result in
            switch result.returnParameters(of: Reset.self) {
            case .success: recovery(code, nil)
            case let .failure(failure): recovery(code, failure)
            }
        }
    }

    /// The start-up sequence after a Hardware Error finished (or failed): running scans
    /// start again, and everyone watching hears the outcome.
    func recovered(_ outcome: ControllerRecovery) {
        if case .restarted = outcome { scanning.resume() }
        announce(outcome)
    }

    /// Tells `Controller.recoveries()` listeners and the peripheral's events.
    func announce(_ recovery: ControllerRecovery) {
        recoveryListeners.yield(recovery)
        attributes.emit(.controllerRecovery(recovery))
    }
}
