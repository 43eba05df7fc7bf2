import SwiftATTCore
import SwiftATTHCI

/// Recovery from a Hardware Error event (Core 5.4 Vol 4 Part E §7.7.16): the loop fails
/// what was pending, ends the links and sends HCI_Reset (`HostStack.hardwareError`);
/// this runs the rest of the start-up sequence again, keeping the static random address
/// so that peers that knew it can find this host again.
extension Controller {
    /// Every `ControllerRecovery` from now until the controller closes.
    public func recoveries() -> AsyncStream<ControllerRecovery> {
        let (stream, continuation) = AsyncStream<ControllerRecovery>.makeStream(bufferingPolicy: .bufferingNewest(64))
        loop.feed(continuation, from: \.recoveryListeners)
        return stream
    }

    /// Lets the loop restart this controller after a Hardware Error. Installed once the
    /// start-up sequence has run: a controller a test drives by hand is left alone.
    func installRecovery() async {
        await perform { stack in
            stack.recovery = { [weak self] code, resetFailure in
                guard let self else { return }
                Task { await self.restart(after: code, resetFailure: resetFailure) }
            }
        }
    }

    /// The controller has been reset (or the reset failed): the start-up sequence again.
    private func restart(after code: UInt8, resetFailure: ControllerError?) async {
        let outcome: ControllerRecovery
        if let resetFailure {
            outcome = .restartFailed(resetFailure)
        } else {
            do {
                outcome = .restarted(try await initialize(.given(info?.randomAddress)))
            } catch {
                outcome = .restartFailed(error)
            }
        }
        await perform { stack in stack.recovered(outcome) }
    }
}
