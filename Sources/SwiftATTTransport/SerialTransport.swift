#if canImport(Glibc)
import Glibc
#endif

/// H4 over a UART (`/dev/ttyUSB0`, `/dev/ttyACM0`): the port in raw mode at the given
/// speed, 8N1, optionally with RTS/CTS hardware flow control.
public enum SerialTransport {
    /// The speeds termios can set, by their number.
    static let speeds: [Int: speed_t] = [
        9600: speed_t(B9600), 19200: speed_t(B19200), 38400: speed_t(B38400), 57600: speed_t(B57600),
        115200: speed_t(B115200), 230400: speed_t(B230400), 460800: speed_t(B460800),
        500000: speed_t(B500000), 921600: speed_t(B921600), 1000000: speed_t(B1000000),
        1500000: speed_t(B1500000), 2000000: speed_t(B2000000), 3000000: speed_t(B3000000),
        4000000: speed_t(B4000000),
    ]

    /// Opens and configures `path`. An unsupported baud rate or a path that is not a
    /// terminal fails with a message naming the problem.
    public static func open(path: String, baudRate: Int, hardwareFlowControl: Bool, name: String) throws(TransportError) -> StreamTransport {
        guard let speed = speeds[baudRate] else {
            let known = speeds.keys.sorted().map(String.init).joined(separator: ", ")
            throw .invalidSpecification(name, reason: "unsupported baud rate \(baudRate) (supported: \(known))")
        }
        let fd = Glibc.open(path, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            let e = Errno.current
            if e.rawValue == EACCES || e.rawValue == EPERM {
                throw .systemCall("open \(path)", e, context: "\(name) (add yourself to the 'dialout' group or run as root)")
            }
            throw .systemCall("open \(path)", e, context: name)
        }
        var tio = termios()
        guard tcgetattr(fd, &tio) == 0 else {
            let e = Errno.current
            _ = Glibc.close(fd)
            throw .systemCall("tcgetattr \(path) (is it a serial port?)", e, context: name)
        }
        cfmakeraw(&tio)
        tio.c_cflag |= tcflag_t(CLOCAL | CREAD)
        tio.c_cflag &= ~tcflag_t(CSTOPB | PARENB)
        if hardwareFlowControl { tio.c_cflag |= tcflag_t(CRTSCTS) } else { tio.c_cflag &= ~tcflag_t(CRTSCTS) }
        cfsetispeed(&tio, speed)
        cfsetospeed(&tio, speed)
        guard tcsetattr(fd, TCSANOW, &tio) == 0 else {
            let e = Errno.current
            _ = Glibc.close(fd)
            throw .systemCall("tcsetattr \(path)", e, context: name)
        }
        tcflush(fd, TCIOFLUSH)
        return try StreamTransport(name: name, fileDescriptor: fd)
    }
}
