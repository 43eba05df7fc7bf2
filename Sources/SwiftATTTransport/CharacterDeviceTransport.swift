#if canImport(Glibc)
import Glibc
#endif

/// H4 over a character device that is a byte stream but not a terminal — a virtio-serial
/// port (`/dev/vport0p1`, `/dev/virtio-ports/NAME`), a socket or pipe a supervisor
/// passes in — opened as it is, with no line settings (`serial:` insists on a UART).
public enum CharacterDeviceTransport {
    /// Opens `path` and waits up to `peerTimeout` for its other end to be there.
    public static func open(path: String, name: String, peerTimeout: Duration = .seconds(10)) throws(TransportError) -> StreamTransport {
        let deadline = ContinuousClock.now + peerTimeout
        try waitForVirtioPortReady(path, until: deadline, name: name)
        let fd = Glibc.open(path, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw .systemCall("open \(path)", .current, context: name) }
        do throws(TransportError) {
            try waitForPeer(fd, timeout: max(.zero, deadline - ContinuousClock.now), name: name)
        } catch {
            _ = Glibc.close(fd)
            throw error
        }
        return try StreamTransport(name: name, fileDescriptor: fd)
    }

    /// A virtio-serial port's device node appears before the guest driver has told qemu
    /// the port is ready; opened in that window, the port never learns that qemu's side
    /// is connected and reports POLLHUP for good — a race a program started at boot
    /// often loses.
    /// The port's name (/sys/class/virtio-ports/vportNpM/name) arrives in qemu's answer to
    /// "ready", just before the connection state, so a named port is safe to open.
    /// Paths that are not virtio ports pass straight through.
    static func waitForVirtioPortReady(_ path: String, until deadline: ContinuousClock.Instant, name: String) throws(TransportError) {
        var resolved = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard realpath(path, &resolved) != nil else { return }  // open reports a missing path
        let device = String(decoding: resolved.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard device.hasPrefix("/dev/vport") else { return }
        let nameFile = "/sys/class/virtio-ports/\(device.dropFirst("/dev/".count))/name"
        while true {
            // The attribute appears with the name (sysfs sizes say nothing: read it).
            if let file = fopen(nameFile, "r") {
                let first = fgetc(file)
                fclose(file)
                if first != EOF && first != 0x0A { return }
            }
            guard ContinuousClock.now < deadline else {
                throw .systemCall("waiting for the virtio port to be ready (\(nameFile))", Errno(ENOTCONN), context: name)
            }
            var none = pollfd(fd: -1, events: 0, revents: 0)
            _ = poll(&none, 1, 20)
        }
    }

    /// A virtio-serial port reports POLLHUP until the host side (qemu's chardev) is
    /// connected, and meanwhile reads end and writes say EAGAIN. The driver raises no
    /// event when the host arrives that `poll` could wait for (it reports the hang-up at
    /// once), so this looks again every 20 ms, for a bounded time.
    static func waitForPeer(_ fd: Int32, timeout: Duration, name: String) throws(TransportError) {
        let deadline = ContinuousClock.now + timeout
        while true {
            var pfd = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            let n = poll(&pfd, 1, 0)
            if n < 0 && errno != EINTR { throw .systemCall("poll", .current, context: name) }
            if n >= 0 && pfd.revents & Int16(POLLHUP) == 0 { return }
            guard ContinuousClock.now < deadline else {
                throw .systemCall("waiting for the other end of the device", Errno(ENOTCONN), context: name)
            }
            var none = pollfd(fd: -1, events: 0, revents: 0)
            _ = poll(&none, 1, 20)
        }
    }
}
