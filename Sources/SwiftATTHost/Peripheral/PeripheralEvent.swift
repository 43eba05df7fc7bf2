import SwiftATTCore
import SwiftATTGATT
import SwiftATTHCI

/// What happens to a peripheral, in the order it happened.
public enum PeripheralEvent: Sendable {
    /// A central connected (connection handle, its address).
    case connected(UInt16, BluetoothAddress)
    /// The link went away, with the reason the controller gave.
    case disconnected(UInt16, HCIStatus)
    /// A central changed its Client Characteristic Configuration (or it was restored,
    /// or dropped at disconnection).
    case subscriptionChanged(GATTSubscriptionChange)
    /// ATT_MTU changed on a connection.
    case mtuChanged(UInt16, Int)
    /// After `updateValue` returned false: the transmit queues have room again, as
    /// CoreBluetooth's `peripheralManagerIsReady(toUpdateSubscribers:)` says.
    case readyToUpdate
    /// An indication was confirmed by the central (connection, value handle).
    case indicationConfirmed(UInt16, UInt16)
    /// Advertising started again by itself after a connection or disconnection
    /// (`Readvertising`).
    case advertisingResumed
    /// Advertising should have resumed, but the controller refused (it may take no more
    /// connections while advertising); the next disconnection tries again.
    case advertisingFailed(ControllerError)
    /// The controller reported a hardware error, and the host reset and restarted it
    /// (`ControllerRecovery`). Links end with `.disconnected(_, .hardwareFailure)` after
    /// `.hardwareError`; advertising resumes after `.restarted` if it was on.
    case controllerRecovery(ControllerRecovery)
}
