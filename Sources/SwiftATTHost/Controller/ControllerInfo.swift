import SwiftATTCore
import SwiftATTHCI

/// What the start-up sequence learned about a controller, and the choices made from it.
public struct ControllerInfo: Sendable, Hashable {
    /// HCI and LMP versions and the manufacturer (Read Local Version Information).
    public var version: ReadLocalVersionInformation.ReturnParameters
    /// Which HCI commands the controller supports, to choose legacy or extended ones.
    public var supportedCommands: HCISupportedCommands
    /// The controller's LE features (LE Read Local Supported Features).
    public var leFeatures: LEFeatures
    /// The controller's public address (00:00:00:00:00:00 when it has none).
    public var publicAddress: BluetoothAddress
    /// The static random address the host set and uses for advertising and initiating.
    public var randomAddress: BluetoothAddress
    /// Octets of ACL data per packet the controller accepts from the host.
    public var aclBufferLength: Int
    /// ACL packets the controller can hold at once.
    public var aclBufferCount: Int
    /// Entries of the controller's resolving list (LE Read Resolving List Size), when it
    /// has LL Privacy and the commands the host programs the list with; nil when the
    /// host resolves peers' private addresses itself (`Controller.addressResolution`).
    public var resolvingListSize: Int?

    /// Extended advertising when the controller lists LE Set Extended Advertising
    /// Parameters among its supported commands (Core 5.4 Vol 4 Part E §3.1.1: a host
    /// uses legacy or extended commands, never both); legacy otherwise.
    public var usesExtendedAdvertising: Bool { supportedCommands.supportsLESetExtendedAdvertisingParameters }
    /// Extended scanning by the same rule.
    public var usesExtendedScanning: Bool { supportedCommands.supportsLESetExtendedScanParameters }
    /// LE Extended Create Connection by the same rule.
    public var usesExtendedCreateConnection: Bool { supportedCommands.supportsLEExtendedCreateConnection }
}
