#if canImport(Glibc)
import Glibc
#endif
import SwiftATTHCI

/// `/dev/vhci`, the kernel's virtual HCI driver (drivers/bluetooth/hci_vhci.c), seen from
/// the controller's side: what is written here arrives in the kernel as coming from a
/// controller, and what the kernel sends its new `hciN` is read here.
///
/// Opening the device and writing `ff 00` (vendor packet: create a primary controller)
/// registers a new adapter at once, instead of after the driver's one-second default.
/// Each `read` returns exactly one H4 packet and each `write` must carry exactly one,
/// so a bridge re-frames byte streams before writing here. The driver's own vendor
/// packets (type 0xff: "created hciN") are not HCI and never leave this transport.
public final class VHCITransport: HCITransport {
    /// The device the kernel's vhci driver creates.
    public static let defaultPath = "/dev/vhci"

    public let name: String
    @exclusivity(unchecked) public private(set) var fileDescriptor: Int32
    /// The index of the adapter the kernel created (`hci0` → 0), once its reply was read.
    public private(set) var adapterIndex: UInt16?
    // Loop-confined per-packet state, unchecked as in StreamTransport.
    @exclusivity(unchecked) private var readBuffer = [UInt8](repeating: 0, count: 4 + 65535 + 1)
    @exclusivity(unchecked) private var writeBuffer: [UInt8] = []

    /// Opens `path` and asks for a primary controller.
    public init(path: String = VHCITransport.defaultPath, name: String) throws(TransportError) {
        self.name = name
        let fd = Glibc.open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            let e = Errno.current
            switch e.rawValue {
            case ENOENT, ENODEV, ENXIO:
                throw .systemCall("open \(path)", e, context: "\(name) (load the driver: modprobe hci_vhci)")
            case EACCES, EPERM:
                throw .systemCall("open \(path)", e, context: "\(name) (needs root)")
            default:
                throw .systemCall("open \(path)", e, context: name)
            }
        }
        fileDescriptor = fd
        let create: [UInt8] = [0xFF, 0x00]  // HCI_VENDOR_PKT, HCI_PRIMARY
        guard write(fd, create, create.count) == create.count else {
            let e = Errno.current
            _ = Glibc.close(fd)
            fileDescriptor = -1
            throw .systemCall("write \(path) (create controller)", e, context: name)
        }
    }

    /// Takes over an already open descriptor with one packet per read and write (a
    /// SOCK_SEQPACKET socket stands in for the driver in tests) and asks for a controller.
    init(name: String, fileDescriptor fd: Int32) throws(TransportError) {
        self.name = name
        fileDescriptor = fd
        let create: [UInt8] = [0xFF, 0x00]
        guard write(fd, create, create.count) == create.count else { throw .systemCall("write (create controller)", .current, context: name) }
        try FileDescriptor.setNonBlocking(fd, context: name)
    }

    deinit { close() }

    /// Takes one packet: the driver hands over exactly one per `read`. Packets still
    /// queued keep the device readable, so the loop's next `poll(2)` returns at once;
    /// reading again until EAGAIN would cost a system call that finds nothing whenever
    /// one packet came.
    public func receive(_ handler: (HCIPacket) -> Void) throws(TransportError) {
        guard fileDescriptor >= 0 else { throw .closed(name) }
        let n = try FileDescriptor.readAvailable(fileDescriptor, into: &readBuffer, context: name)
        guard n > 0 else { return }
        if readBuffer[0] == 0xFF {
            // [ff, opcode, index lo, index hi]: the driver's reply to "create".
            if n >= 4 { adapterIndex = UInt16(readBuffer[2]) | UInt16(readBuffer[3]) << 8 }
            return
        }
        guard let type = HCIPacketType(rawValue: readBuffer[0]) else { return }
        handler(HCIPacket(type: type, bytes: readBuffer[1..<n]))
    }

    /// One packet, one `write`: the driver takes a short write as a whole (truncated) packet.
    public func send(_ packet: HCIPacket) throws(TransportError) {
        guard fileDescriptor >= 0 else { throw .closed(name) }
        writeBuffer.removeAll(keepingCapacity: true)
        writeBuffer.append(packet.type.rawValue)
        writeBuffer.append(contentsOf: packet.bytes)
        while true {
            let n = writeBuffer.withUnsafeBytes { write(fileDescriptor, $0.baseAddress!, $0.count) }
            if n == writeBuffer.count { return }
            if n >= 0 { throw .framing(name, reason: "the driver took \(n) of \(writeBuffer.count) bytes of one packet") }
            let e = errno
            if e == EINTR { continue }
            if e == EAGAIN {
                guard try FileDescriptor.waitWritable(fileDescriptor, timeout: .seconds(5), context: name) else { throw .timedOut(name) }
                continue
            }
            throw .systemCall("write", Errno(e), context: name)
        }
    }

    public func close() {
        if fileDescriptor >= 0 {
            _ = Glibc.close(fileDescriptor)
            fileDescriptor = -1
        }
    }
}
