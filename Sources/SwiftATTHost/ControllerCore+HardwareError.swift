import SwiftATTGATT
import SwiftATTHCI
import SwiftATTL2CAP

/// What the loop does when the controller reports a Hardware Error (Core 5.4 Vol 4
/// Part E §7.7.16): the controller has failed and must be reset, and a reset ends its
/// links (§7.3.2), so nothing pending can complete any more.
extension ControllerCore {
    /// Fails every pending command with `.hardwareError(code)`, ends every link (its
    /// GATT calls fail with `DisconnectReason.hardwareError(code)`, listeners hear
    /// `.disconnected(_, .hardwareFailure)`), forgets ACL flow and partial frames, and,
    /// when the host was started, sends HCI_Reset and hands over to `recovery` to run the
    /// rest of the start-up sequence.
    func hardwareError(_ code: UInt8) {
        let error = HCIError.hardwareError(code)
        for callback in commands.restart() { callback(.failure(error)) }
        announce(.hardwareError(code))
        for handle in links.map(\.handle).sorted() {
            detach(handle, reason: .hardwareFailure, cause: .hardwareError(code))
        }
        connections.removeAll()
        // No subscriber's queue is full any more: an `updateValue` refused before may go on.
        signalRoomIfWaiting()
        // The controller's buffers were emptied by the failure: nothing queued for it is
        // owed a credit. Flow control starts again with the start-up sequence.
        acl = nil
        recombiner = L2CAPRecombiner(maximumPayloadLength: recombiner.maximumPayloadLength)
        guard let recovery else { return }
        sendCommand(Reset().packet, timeout: .seconds(5)) { result in
            switch result {
            case let .failure(failure):
                recovery(code, failure)
            case let .success(.complete(complete)):
                let status = complete.status ?? .success
                recovery(code, status.isSuccess ? nil : .commandFailed(Reset.opcode, status))
            case let .success(.status(status)):
                recovery(code, .unexpectedResponse(Reset.opcode, "Command Status (\(status.status)) where Command Complete was expected"))
            }
        }
    }

    /// The start-up sequence after a Hardware Error finished (or failed): running scans
    /// start again, and everyone watching hears the outcome.
    func recovered(_ outcome: ControllerRecovery) {
        if case .restarted = outcome { resumeScanning() }
        announce(outcome)
    }

    /// Tells `Controller.recoveries()` listeners and the peripheral's events.
    func announce(_ recovery: ControllerRecovery) {
        recoveryListeners.yield(recovery)
        emit(.controllerRecovery(recovery))
    }
}
