import SwiftATTCore
import SwiftATTSMP

/// The user's part in pairing: what CoreBluetooth shows as system alerts, an application
/// on Linux answers itself. Every method is asked on a task of its own, never on the
/// host's loop, so it may take as long as a user does (within the SMP's 30 s).
public protocol PairingDelegate: Sendable {
    /// A central asks this device to pair with these features: accept or refuse
    /// (refused: Pairing Not Supported). Asked only when the configuration says
    /// `confirmsIncomingPairing`.
    func acceptPairing(from peer: BluetoothAddress, features: PairingFeatures) async -> Bool
    /// Numeric Comparison: does the peer show this number (000000–999999)?
    func confirmNumber(_ number: UInt32, for peer: BluetoothAddress) async -> Bool
    /// Passkey Entry: show this passkey for the user to type on the peer.
    func displayPasskey(_ passkey: UInt32, for peer: BluetoothAddress) async
    /// Passkey Entry: the passkey the peer shows, or `nil` to cancel.
    func enterPasskey(for peer: BluetoothAddress) async -> UInt32?
}

/// Answers without a user: accepts every request, confirms every number, and types
/// `passkey` when asked (a fixed passkey agreed beforehand, as a headless device with
/// a printed PIN has). Refuses Passkey Entry when it has no passkey.
public struct AutomaticPairingDelegate: PairingDelegate {
    /// The passkey to type in Passkey Entry; `nil` refuses it.
    public var passkey: UInt32?
    /// The answer to every request and Numeric Comparison.
    public var confirms: Bool

    /// A delegate that answers `confirms` and types `passkey`.
    public init(passkey: UInt32? = nil, confirms: Bool = true) {
        self.passkey = passkey
        self.confirms = confirms
    }

    public func acceptPairing(from peer: BluetoothAddress, features: PairingFeatures) async -> Bool { true }
    public func confirmNumber(_ number: UInt32, for peer: BluetoothAddress) async -> Bool { confirms }
    public func displayPasskey(_ passkey: UInt32, for peer: BluetoothAddress) async {}
    public func enterPasskey(for peer: BluetoothAddress) async -> UInt32? { passkey }
}
