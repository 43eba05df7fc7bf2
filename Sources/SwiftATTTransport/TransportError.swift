/// Why a transport could not be opened or used, each with what the user can do.
public enum TransportError: Error, Hashable, Sendable, CustomStringConvertible {
    /// `socket(AF_BLUETOOTH)` failed with EAFNOSUPPORT.
    case kernelLacksBluetooth
    /// The adapter is held by another process (usually bluetoothd).
    case adapterBusy(String)
    /// Opening the user channel needs privileges.
    case permissionDenied(String)
    /// No adapter by that name; `available` lists the ones that exist.
    case noSuchAdapter(String, available: [String])
    /// The adapter is soft- or hard-blocked by rfkill.
    case rfkillBlocked(String)
    /// A `--transport` string that names no transport.
    case invalidSpecification(String, reason: String)
    /// A system call failed.
    case systemCall(String, Errno, context: String)
    /// The other end closed the connection or the device went away.
    case closed(String)
    /// The byte stream could not be split into HCI packets.
    case framing(String, reason: String)
    /// Nothing arrived or could be written in time.
    case timedOut(String)
    /// The kernel's management channel refused a command.
    case managementCommandFailed(ManagementOpcode, index: UInt16, ManagementStatus)

    public var description: String {
        switch self {
        case .kernelLacksBluetooth:
            return "this kernel has no Bluetooth support (AF_BLUETOOTH): load the bluetooth module (modprobe bluetooth), or use --transport tcp:HOST:PORT or serial:/dev/ttyUSB0"
        case let .adapterBusy(name):
            return "\(name) is in use by another process (usually bluetoothd): stop it with 'systemctl stop bluetooth' or power the adapter off with 'btmgmt -i \(name) power off', then retry"
        case let .permissionDenied(name):
            return "opening \(name) needs root or CAP_NET_ADMIN: run with sudo, or grant the binary the capability with 'sudo setcap cap_net_admin+ep $(which swift-att)'"
        case let .noSuchAdapter(name, available):
            let list = available.isEmpty ? "no Bluetooth adapters are present" : "adapters present: " + available.joined(separator: ", ")
            return "no such adapter \(name) (\(list))"
        case let .rfkillBlocked(name):
            return "\(name) is blocked by rfkill: unblock it with 'rfkill unblock bluetooth'"
        case let .invalidSpecification(spec, reason):
            return "invalid transport '\(spec)': \(reason) (expected hci0, serial:/dev/ttyUSB0[@BAUD][,rtscts], tcp:HOST:PORT, tcp-server:HOST:PORT, vhci[:PATH] or h4:PATH)"
        case let .systemCall(call, errno, context):
            return "\(context): \(call) failed: \(errno)"
        case let .closed(name):
            return "\(name): the controller connection was closed"
        case let .framing(name, reason):
            return "\(name): cannot frame HCI packets: \(reason)"
        case let .timedOut(name):
            return "\(name): timed out"
        case let .managementCommandFailed(opcode, index, status):
            let adapter = index == ManagementCommand.noIndex ? "" : " for hci\(index)"
            return "the kernel's management channel refused \(opcode)\(adapter): \(status)"
        }
    }
}
