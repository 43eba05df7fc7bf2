#if canImport(Glibc)
import Glibc
#endif

/// H4 over a character device that is a byte stream but not a terminal — a virtio-serial
/// port (`/dev/vport0p1`, `/dev/virtio-ports/NAME`), a socket or pipe a supervisor
/// passes in — opened as it is, with no line settings (`serial:` insists on a UART).
public enum CharacterDeviceTransport {
    public static func open(path: String, name: String) throws(TransportError) -> StreamTransport {
        let fd = Glibc.open(path, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw .systemCall("open \(path)", .current, context: name) }
        return try StreamTransport(name: name, fileDescriptor: fd)
    }
}
