#if canImport(Glibc)
import Glibc
#endif
import SwiftATTCore
import CSwiftATTBluetooth

/// What the kernel says about one adapter (`HCIGETDEVINFO`), and the management
/// channel's view of it: enough to say who holds it.
public struct KernelAdapter: Hashable, Sendable {
    /// The adapter's index: 0 for `hci0`.
    public var index: UInt16
    /// The adapter's name as users write it in `--transport`: `hci0`.
    public var name: String { "hci\(index)" }
    /// The controller's public address as the kernel last read it (zero before setup).
    public var address: BluetoothAddress
    /// The kernel's flags for the adapter: up, initializing, running.
    public var flags: HCIDeviceFlags
    /// Listed by Read Controller Index List: set up, and no program holds the user channel.
    public var listed: Bool
    /// The management channel's "powered" setting (bluetoothd powers adapters on).
    public var powered: Bool

    /// Who has the adapter, as far as the kernel shows it.
    public enum Holder: Hashable, Sendable {
        /// Still in the kernel's own setup: not listed and not up.
        case settingUp
        /// Listed and powered: the management interface (bluetoothd) is using it.
        case management
        /// Listed and down: free to open on the user channel.
        case nobody
        /// Up but not listed: a program holds it on the user channel (or raw access).
        case userChannel
    }

    /// Who has the adapter, read from the flags and the management channel's listing, so that
    /// a failure to open it can say who to stop.
    public var holder: Holder {
        if listed { return powered || flags.contains(.up) ? .management : .nobody }
        return flags.contains(.up) && !flags.contains(.initializing) ? .userChannel : .settingUp
    }

    /// An adapter as the kernel and the management channel describe it.
    public init(index: UInt16, address: BluetoothAddress, flags: HCIDeviceFlags, listed: Bool, powered: Bool) {
        self.index = index
        self.address = address
        self.flags = flags
        self.listed = listed
        self.powered = powered
    }

    /// `HCIGETDEVINFO` for one index: its flags and address. Fails with `.noSuchAdapter`
    /// (listing those that exist) or `.kernelLacksBluetooth`, as opening it would.
    public static func deviceInfo(index: UInt16) throws(TransportError) -> (flags: HCIDeviceFlags, address: BluetoothAddress) {
        var info = hci_dev_info()
        guard hci_devinfo(Int32(index), &info) == 0 else {
            throw HCISocketTransport.error(for: .current, call: "ioctl(HCIGETDEVINFO)", adapter: "hci\(index)",
                                           available: HCISocketTransport.adapterNames)
        }
        let bytes = withUnsafeBytes(of: info.bdaddr.b) { Array($0) }
        return (HCIDeviceFlags(rawValue: info.flags), BluetoothAddress(littleEndianBytes: bytes[...], kind: .public))
    }

    /// Every adapter the kernel has, with the management channel's view of each.
    public static func all() throws(TransportError) -> [KernelAdapter] {
        let management = try ManagementSocket()
        let listed = Set(try management.indexList())
        var adapters: [KernelAdapter] = []
        for index in 0..<UInt16(HCI_MAX_DEV) {
            guard let info = try? deviceInfo(index: index) else { continue }
            var powered = false
            if listed.contains(index), let settings = try? management.controllerInformation(index: index).currentSettings {
                powered = settings.contains(.powered)
            }
            adapters.append(KernelAdapter(index: index, address: info.address, flags: info.flags,
                                          listed: listed.contains(index), powered: powered))
        }
        return adapters
    }
}

/// The kernel's `hdev->flags` as HCIGETDEVINFO reports them (include/net/bluetooth/hci.h).
/// While the kernel keeps an adapter on "auto off" after setup it reports it down.
public struct HCIDeviceFlags: OptionSet, Hashable, Sendable {
    public var rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// The adapter is up (`HCI_UP`): the kernel, or a user channel, is driving it.
    public static let up = HCIDeviceFlags(rawValue: 1 << 0)
    /// The kernel is running the controller's init sequence.
    public static let initializing = HCIDeviceFlags(rawValue: 1 << 1)
    /// The kernel's `HCI_RUNNING`: the driver is open and passing packets.
    public static let running = HCIDeviceFlags(rawValue: 1 << 2)
}
