#if canImport(Glibc)
import Glibc
#endif
import CSwiftATTBluetooth
import SwiftATTHCI

/// A kernel Bluetooth adapter (`hci0`) opened on the HCI user channel: exclusive, raw
/// access to the controller with no bluetoothd in between.
///
/// Linux (net/bluetooth/hci_sock.c) grants the user channel only to an adapter that is
/// down and not held by anyone else, to root or CAP_NET_ADMIN. Each `read` returns one
/// packet with its H4 indicator and each `write` takes one. When the socket closes the
/// kernel hands the adapter back to its management interface, so bluetoothd can take
/// it again.
public final class HCISocketTransport: HCITransport {
    public let name: String
    /// The adapter's index: 0 for `hci0`.
    public let index: UInt16
    public private(set) var fileDescriptor: Int32
    private var readBuffer = [UInt8](repeating: 0, count: 4 + 65535 + 1)
    private var writeBuffer: [UInt8] = []
    /// How long `send` may wait for the kernel to take a packet before failing.
    public var writeTimeout: Duration = .seconds(5)

    /// `hci0` → 0. Anything else is not an adapter name.
    public static func index(of name: String) -> UInt16? {
        guard name.hasPrefix("hci"), let n = UInt16(name.dropFirst(3)), n < HCI_MAX_DEV, String(n) == name.dropFirst(3) else {
            return nil
        }
        return n
    }

    /// The socket address that binds adapter `index` on `channel` (HCI_CHANNEL_USER = 1).
    public static func socketAddress(index: UInt16, channel: UInt16) -> sockaddr_hci {
        var address = sockaddr_hci()
        address.hci_family = sa_family_t(AF_BLUETOOTH)
        address.hci_dev = index
        address.hci_channel = channel
        return address
    }

    /// Maps the errno of a failed socket/ioctl/bind to what the user should do.
    public static func error(for errno: Errno, call: String, adapter name: String, available: () -> [String]) -> TransportError {
        switch errno.rawValue {
        case EAFNOSUPPORT, EPROTONOSUPPORT: return .kernelLacksBluetooth
        case EBUSY, EALREADY, EUSERS: return .adapterBusy(name)
        case EPERM, EACCES: return .permissionDenied(name)
        case ENODEV, ENXIO: return .noSuchAdapter(name, available: available())
        case ERFKILL: return .rfkillBlocked(name)
        default: return .systemCall(call, errno, context: name)
        }
    }

    /// The adapters the kernel has, as `hciN` names (empty without Bluetooth support).
    public static func adapterNames() -> [String] {
        var names: [String] = []
        for id in 0..<Int32(HCI_MAX_DEV) {
            var info = hci_dev_info()
            if hci_devinfo(id, &info) == 0 { names.append("hci\(id)") }
        }
        return names
    }

    /// Opens `name` (`hci0`) on the user channel, the way that survives a real kernel:
    /// waits until the kernel has finished its own setup of the adapter (the management
    /// channel lists it), takes it down, then binds. See `UserChannelOpening.swift`.
    public init(name: String, setupTimeout: Duration = .seconds(10)) throws(TransportError) {
        guard let index = Self.index(of: name) else {
            throw .invalidSpecification(name, reason: "an adapter is named hciN")
        }
        self.name = name
        self.index = index
        let fd = socket(AF_BLUETOOTH, Int32(SOCK_RAW.rawValue) | Int32(SOCK_CLOEXEC.rawValue), BTPROTO_HCI)
        guard fd >= 0 else {
            throw Self.error(for: .current, call: "socket(AF_BLUETOOTH)", adapter: name, available: Self.adapterNames)
        }
        fileDescriptor = fd
        do throws(TransportError) {
            try UserChannelOpening(socket: fd, index: index, name: name).run(setupTimeout: setupTimeout)
            try FileDescriptor.setNonBlocking(fd, context: name)
        } catch {
            _ = Glibc.close(fd)
            fileDescriptor = -1
            throw error
        }
    }

    /// Takes over an already open descriptor that keeps packets whole, as the user
    /// channel does (a SOCK_SEQPACKET socket stands in for it in tests).
    init(name: String, index: UInt16, fileDescriptor fd: Int32) throws(TransportError) {
        self.name = name
        self.index = index
        fileDescriptor = fd
        try FileDescriptor.setNonBlocking(fd, context: name)
    }

    deinit { close() }

    /// Takes one packet: the kernel hands over exactly one per `read`, never part of
    /// one. Reading again until EAGAIN would cost a system call that finds nothing
    /// whenever one packet came (a command's answer, the common case); packets still
    /// queued keep the socket readable, so the loop's next `poll(2)` returns at once.
    public func receive(_ handler: (HCIPacket) -> Void) throws(TransportError) {
        guard fileDescriptor >= 0 else { throw .closed(name) }
        let n = try FileDescriptor.readAvailable(fileDescriptor, into: &readBuffer, context: name)
        guard n > 0, let type = HCIPacketType(rawValue: readBuffer[0]) else { return }
        handler(HCIPacket(type: type, bytes: readBuffer[1..<n]))
    }

    public func send(_ packet: HCIPacket) throws(TransportError) {
        guard fileDescriptor >= 0 else { throw .closed(name) }
        writeBuffer.removeAll(keepingCapacity: true)
        writeBuffer.append(packet.type.rawValue)
        writeBuffer.append(contentsOf: packet.bytes)
        try FileDescriptor.writeAll(fileDescriptor, writeBuffer, timeout: writeTimeout, context: name)
    }

    /// Closing the user channel is what hands the adapter back: the kernel takes it
    /// down, clears the user-channel flag and announces Index Added, so bluetoothd (or
    /// the next `swift-att`) can take it.
    public func close() {
        if fileDescriptor >= 0 {
            _ = Glibc.close(fileDescriptor)
            fileDescriptor = -1
        }
    }
}
