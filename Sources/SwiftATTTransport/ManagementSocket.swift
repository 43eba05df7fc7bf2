#if canImport(Glibc)
import Glibc
#endif
import CSwiftATTBluetooth

/// A socket on the kernel's Bluetooth management channel (`HCI_CHANNEL_CONTROL`).
///
/// Any user may open one: reading the index list and controller information needs no
/// privilege (net/bluetooth/mgmt.c lists them as untrusted-safe). Reading the index list
/// also subscribes the socket to Index Added/Removed events, which is how the hci0
/// transport waits for the kernel to finish setting up a new adapter without sleeping.
public final class ManagementSocket {
    /// The socket, or -1 once closed.
    public private(set) var fileDescriptor: Int32
    private var buffer = [UInt8](repeating: 0, count: 1024)

    /// Opens and binds the control channel. Fails with `.kernelLacksBluetooth` where
    /// `AF_BLUETOOTH` does not exist.
    public init() throws(TransportError) {
        let fd = socket(AF_BLUETOOTH, Int32(SOCK_RAW.rawValue) | Int32(SOCK_CLOEXEC.rawValue), BTPROTO_HCI)
        guard fd >= 0 else {
            throw HCISocketTransport.error(for: .current, call: "socket(AF_BLUETOOTH)", adapter: "management channel") { [] }
        }
        var address = HCISocketTransport.socketAddress(index: UInt16(HCI_DEV_NONE), channel: UInt16(HCI_CHANNEL_CONTROL))
        let rc = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_hci>.size)) }
        }
        guard rc == 0 else {
            let e = Errno.current
            _ = Glibc.close(fd)
            throw .systemCall("bind(HCI_CHANNEL_CONTROL)", e, context: "management channel")
        }
        fileDescriptor = fd
    }

    deinit { close() }

    /// Closes the socket; later calls fail with `.closed`.
    public func close() {
        if fileDescriptor >= 0 {
            _ = Glibc.close(fileDescriptor)
            fileDescriptor = -1
        }
    }

    /// Writes `command`; its reply comes back as an event (`nextEvent(timeout:)`).
    public func send(_ command: ManagementCommand) throws(TransportError) {
        guard fileDescriptor >= 0 else { throw .closed("management channel") }
        try FileDescriptor.writeAll(fileDescriptor, command.encoded(), timeout: .seconds(1), context: "management channel")
    }

    /// The next event, waiting up to `timeout`; `nil` when none came in time.
    public func nextEvent(timeout: Duration) throws(TransportError) -> ManagementEvent? {
        guard fileDescriptor >= 0 else { throw .closed("management channel") }
        guard try FileDescriptor.waitReadable(fileDescriptor, timeout: timeout, context: "management channel") else { return nil }
        let n = read(fileDescriptor, &buffer, buffer.count)
        guard n >= 0 else {
            if errno == EINTR || errno == EAGAIN { return try nextEvent(timeout: .zero) }
            throw .systemCall("read", .current, context: "management channel")
        }
        do throws(ManagementDecodingError) {
            return try ManagementEvent(Array(buffer[..<n])[...])
        } catch {
            throw .framing("management channel", reason: error.description)
        }
    }

    /// Sends `command` and returns its return parameters, skipping unrelated events.
    /// `observe` sees each skipped event (Index Added may come in between).
    public func request(_ command: ManagementCommand, timeout: Duration = .seconds(2),
                        observe: (ManagementEvent) -> Void = { _ in }) throws(TransportError) -> ArraySlice<UInt8> {
        try send(command)
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            guard let event = try nextEvent(timeout: deadline - ContinuousClock.now) else { break }
            switch event {
            case let .commandComplete(opcode, index, status, parameters) where opcode == command.opcode && index == command.index:
                guard status == .success else { throw .managementCommandFailed(command.opcode, index: index, status) }
                return parameters
            case let .commandStatus(opcode, index, status) where opcode == command.opcode && index == command.index:
                throw .managementCommandFailed(command.opcode, index: index, status)
            default:
                observe(event)
            }
        }
        throw .timedOut("management channel (\(command.opcode))")
    }

    /// The adapters the kernel has set up and nobody holds on the user channel.
    public func indexList() throws(TransportError) -> [UInt16] {
        let reply = try request(.readIndexList)
        do throws(ManagementDecodingError) {
            return try ManagementIndexList(returnParameters: reply).indexes
        } catch {
            throw .framing("management channel", reason: error.description)
        }
    }

    /// Read Controller Information for adapter `index`, waiting for the reply.
    public func controllerInformation(index: UInt16) throws(TransportError) -> ManagementControllerInformation {
        let reply = try request(.readInformation(index: index))
        do throws(ManagementDecodingError) {
            return try ManagementControllerInformation(returnParameters: reply)
        } catch {
            throw .framing("management channel", reason: error.description)
        }
    }
}
