/// What the host did about a Hardware Error event (Core 5.4 Vol 4 Part E §7.7.16), in
/// the order it happened: `Controller.recoveries()` and `PeripheralEvent.controllerRecovery`.
public enum ControllerRecovery: Sendable, Hashable {
    /// The controller reported a hardware error (its code, meaning defined by its maker).
    /// Every pending command failed with `HCIError.hardwareError`, every link ended (its
    /// GATT calls fail with `DisconnectReason.hardwareError`), and HCI_Reset went out.
    case hardwareError(UInt8)
    /// The start-up sequence ran again after the reset (same static random address): the
    /// host works again. Running scans resumed; a peripheral advertises again.
    case restarted(ControllerInfo)
    /// The reset or the start-up sequence failed: the controller is unusable; close it.
    case restartFailed(ControllerError)
}
