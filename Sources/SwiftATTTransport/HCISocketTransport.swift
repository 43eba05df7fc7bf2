#if canImport(Glibc)
import Glibc
#endif
import CSwiftATTBluetooth
import SwiftATTHCI

/// A kernel Bluetooth adapter (`hci0`) opened on the HCI user channel: exclusive, raw
/// access to the controller with no bluetoothd in between.
///
/// Linux (net/bluetooth/hci_sock.c) grants the user channel only to an adapter that is
/// down and not held by anyone else, to root or CAP_NET_ADMIN. The socket keeps packets
/// whole, each with its H4 indicator: a `recvmsg` takes one, a `sendmsg` gives one, and
/// `recvmmsg` takes several in one system call. When the socket closes the
/// kernel hands the adapter back to its management interface, so bluetoothd can take
/// it again.
public final class HCISocketTransport: HCITransport {
    public let name: String
    /// The adapter's index: 0 for `hci0`.
    public let index: UInt16
    @exclusivity(unchecked) public private(set) var fileDescriptor: Int32
    // Loop-confined per-packet state, unchecked as in StreamTransport.
    /// `Self.batch` slots of the largest packet each (an ACL header and 65535 octets,
    /// after the indicator): a packet is never cut, whichever slot it lands in.
    @exclusivity(unchecked) private var readBuffer = [UInt8](repeating: 0, count: HCISocketTransport.batch * HCISocketTransport.slot)
    @exclusivity(unchecked) private var writeBuffer: [UInt8] = []
    /// The last packets read ended with a command's answer (`receive`).
    @exclusivity(unchecked) private var expectingLonePacket = false
    /// The message headers and I/O vectors of one `recvmmsg`, each header pointing at
    /// its vector once and for all; the vectors are pointed at `readBuffer` per call.
    /// Freed by `deinit`, so allocated only once the socket is open: an initializer that
    /// throws before every property is set runs no `deinit`, and would leak them (640
    /// bytes per failed open, LeakSanitizer found, on a kernel without Bluetooth).
    private let messages: UnsafeMutablePointer<cbluetooth_mmsghdr>
    private let vectors: UnsafeMutablePointer<iovec>
    /// Packets taken per system call, at most. Packets come in bursts when the
    /// host is slower than the link (a Number Of Completed Packets per packet sent):
    /// under qemu's emulated CPU each system call costs tens of microseconds.
    static let batch = 8
    static let slot = 1 + 4 + 65535
    /// How long `send` may wait for the kernel to take a packet before failing.
    /// Read on every write, so without a run-time exclusivity check (one per command
    /// round trip): like the descriptor, it is set by the transport's owner between
    /// uses, never during one.
    @exclusivity(unchecked) public var writeTimeout: Duration = .seconds(5)

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
        messages = .allocate(capacity: Self.batch)
        vectors = .allocate(capacity: Self.batch)
        fileDescriptor = fd
        // Every property is set from here: a throw runs `deinit`, which frees them.
        prepareMessages()
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
        messages = .allocate(capacity: Self.batch)
        vectors = .allocate(capacity: Self.batch)
        fileDescriptor = fd
        prepareMessages()
        try FileDescriptor.setNonBlocking(fd, context: name)
    }

    /// Points each message header at its I/O vector, for every `recvmmsg`.
    private func prepareMessages() {
        for i in 0..<Self.batch {
            messages[i] = cbluetooth_mmsghdr()
            messages[i].msg_hdr.msg_iov = vectors + i
            messages[i].msg_hdr.msg_iovlen = 1
        }
    }

    deinit {
        close()
        messages.deallocate()
        vectors.deallocate()
    }

    /// Takes the packets waiting now. After a command's answer the next packet most
    /// likely comes alone (a host keeps one command in flight), and one `read` takes it
    /// for less than `recvmmsg(2)`, whose second, empty try the kernel makes inside the
    /// call; after anything else (ACL data, Number Of Completed Packets, which come in
    /// bursts when the host is slower than the link) one `recvmmsg` takes up to `batch`.
    /// Either way one system call per turn: reading again until EAGAIN would cost a call
    /// that finds nothing, and packets still queued keep the socket readable, so the
    /// loop's next `poll(2)` returns at once.
    public func receive(_ handler: (HCIPacket) -> Void) throws(TransportError) {
        guard fileDescriptor >= 0 else { throw .closed(name) }
        if expectingLonePacket {
            let n = try FileDescriptor.readAvailable(fileDescriptor, into: &readBuffer, context: name)
            guard n > 0, let type = HCIPacketType(rawValue: readBuffer[0]) else { return }
            expectingLonePacket = n > 1 && Self.isCommandAnswer(type, code: readBuffer[1])
            handler(HCIPacket(type: type, bytes: readBuffer[1..<n]))
            return
        }
        let fd = fileDescriptor
        let count = readBuffer.withUnsafeMutableBytes { buffer in
            for i in 0..<Self.batch {
                vectors[i] = iovec(iov_base: buffer.baseAddress! + i * Self.slot, iov_len: Self.slot)
            }
            while true {
                let n = cbluetooth_recvmmsg(fd, messages, UInt32(Self.batch), Int32(MSG_DONTWAIT))
                if n >= 0 || errno != EINTR { return n }
            }
        }
        if count < 0 {
            let e = errno
            if e == EAGAIN || e == EWOULDBLOCK { return }
            if e == ECONNRESET || e == ENODEV || e == ENXIO || e == EIO { throw .closed(name) }
            throw .systemCall("recvmmsg", Errno(e), context: name)
        }
        for i in 0..<Int(count) {
            let length = Int(messages[i].msg_len)
            // The user channel never hands over an empty packet: an empty message is
            // the end of the stream (the socket pair standing in for it, closed).
            if length == 0 { throw .closed(name) }
            let start = i * Self.slot
            guard let type = HCIPacketType(rawValue: readBuffer[start]) else { continue }
            if i == count - 1 {
                expectingLonePacket = length > 1 && Self.isCommandAnswer(type, code: readBuffer[start + 1])
            }
            handler(HCIPacket(type: type, bytes: readBuffer[(start + 1)..<(start + length)]))
        }
    }

    /// Command Complete or Command Status.
    static func isCommandAnswer(_ type: HCIPacketType, code: UInt8) -> Bool {
        type == .event && (code == 0x0E || code == 0x0F)
    }

    public func send(_ packet: HCIPacket) throws(TransportError) {
        guard fileDescriptor >= 0 else { throw .closed(name) }
        writeBuffer.removeAll(keepingCapacity: true)
        writeBuffer.append(packet.type.rawValue)
        writeBuffer.append(contentsOf: packet.bytes)
        try FileDescriptor.writeAll(fileDescriptor, writeBuffer, timeout: writeTimeout, context: name)
    }

    /// Framed on the stack and written from there.
    public func send(command: HCICommandPacket) throws(TransportError) {
        guard fileDescriptor >= 0 else { throw .closed(name) }
        try command.withH4Bytes { bytes throws(TransportError) in
            try FileDescriptor.writeAll(fileDescriptor, bytes, timeout: writeTimeout, context: name)
        }
    }

    /// One `write` per packet. Not `sendmmsg(2)`: the kernel marks every message but
    /// the last of a batch MSG_BATCH, a flag the HCI socket refuses (EINVAL, seen on
    /// Debian 12's kernel in the kernel bench).
    public func send(contentsOf packets: [HCIPacket]) throws(TransportError) {
        for packet in packets { try send(packet) }
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
