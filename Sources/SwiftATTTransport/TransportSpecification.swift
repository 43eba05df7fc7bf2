/// Which transport to open, parsed from the one string a user passes with `--transport`:
/// `hci0`, `serial:/dev/ttyUSB0[@1000000][,rtscts]`, `tcp:HOST:PORT`, `tcp-server:HOST:PORT`,
/// and for `swift-att bridge`: `vhci[:/dev/vhci]` (the controller side of a new kernel
/// adapter) and `h4:PATH` (H4 over a non-terminal character device, e.g. a virtio port).
public enum TransportSpecification: Hashable, Sendable, CustomStringConvertible {
    /// `hci0`: the kernel's adapter on the HCI user channel (`HCISocketTransport`).
    case hciSocket(name: String)
    /// `serial:PATH[@BAUD][,rtscts]`: H4 over a UART (`SerialTransport`).
    case serial(path: String, baudRate: Int, hardwareFlowControl: Bool)
    /// `tcp:HOST:PORT`: H4 over a TCP connection to a controller, such as Bumble's.
    case tcpClient(host: String, port: UInt16)
    /// `tcp-server:HOST:PORT`: H4 over TCP, waiting for the controller side to connect.
    case tcpServer(host: String, port: UInt16)
    /// `vhci[:PATH]`: the controller side of a new kernel adapter (`VHCITransport`).
    case vhci(path: String)
    /// `h4:PATH`: H4 over a character device that is not a terminal, such as a virtio port.
    case characterDevice(path: String)
    /// A controller in this process (the loopback link, a test double): never parsed
    /// from a string, only built in code.
    case inProcess(InProcessTransportFactory)

    /// The default UART speed of most H4 controllers' firmware.
    public static let defaultBaudRate = 115_200

    /// Parses what a user passed with `--transport`; an `.invalidSpecification` error says what is wrong with it.
    public init(parsing text: String) throws(TransportError) {
        if HCISocketTransport.index(of: text) != nil {
            self = .hciSocket(name: text)
        } else if text.hasPrefix("serial:") {
            var rest = Substring(text.dropFirst("serial:".count))
            var flow = false
            if rest.hasSuffix(",rtscts") { flow = true; rest = rest.dropLast(",rtscts".count) }
            var baud = Self.defaultBaudRate
            if let at = rest.lastIndex(of: "@") {
                guard let b = Int(rest[rest.index(after: at)...]), b > 0 else {
                    throw .invalidSpecification(text, reason: "baud rate after '@' must be a number")
                }
                baud = b
                rest = rest[..<at]
            }
            guard rest.hasPrefix("/") else { throw .invalidSpecification(text, reason: "serial needs a device path such as /dev/ttyUSB0") }
            self = .serial(path: String(rest), baudRate: baud, hardwareFlowControl: flow)
        } else if text.hasPrefix("tcp:") || text.hasPrefix("tcp-server:") {
            let server = text.hasPrefix("tcp-server:")
            let rest = text.dropFirst(server ? "tcp-server:".count : "tcp:".count)
            guard let colon = rest.lastIndex(of: ":"), let port = UInt16(rest[rest.index(after: colon)...]), port > 0 else {
                throw .invalidSpecification(text, reason: "expected HOST:PORT with a port from 1 to 65535")
            }
            var host = String(rest[..<colon])
            if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
            guard !host.isEmpty else { throw .invalidSpecification(text, reason: "missing host") }
            self = server ? .tcpServer(host: host, port: port) : .tcpClient(host: host, port: port)
        } else if text == "vhci" || text.hasPrefix("vhci:") {
            let path = text == "vhci" ? VHCITransport.defaultPath : String(text.dropFirst("vhci:".count))
            guard path.hasPrefix("/") else { throw .invalidSpecification(text, reason: "vhci takes a device path such as /dev/vhci") }
            self = .vhci(path: path)
        } else if text.hasPrefix("h4:") {
            let path = String(text.dropFirst("h4:".count))
            guard path.hasPrefix("/") else { throw .invalidSpecification(text, reason: "h4 needs a device path such as /dev/vport0p1") }
            self = .characterDevice(path: path)
        } else if text.hasPrefix("hci") {
            throw .invalidSpecification(text, reason: "an adapter is named hci followed by its index, e.g. hci0")
        } else {
            throw .invalidSpecification(text, reason: "unknown transport")
        }
    }

    public var description: String {
        switch self {
        case let .hciSocket(name): return name
        case let .serial(path, baud, flow): return "serial:\(path)@\(baud)" + (flow ? ",rtscts" : "")
        case let .tcpClient(host, port): return "tcp:\(host.contains(":") ? "[\(host)]" : host):\(port)"
        case let .tcpServer(host, port): return "tcp-server:\(host.contains(":") ? "[\(host)]" : host):\(port)"
        case let .vhci(path): return path == VHCITransport.defaultPath ? "vhci" : "vhci:\(path)"
        case let .characterDevice(path): return "h4:\(path)"
        case let .inProcess(factory): return factory.name
        }
    }

    /// Opens the transport. A TCP server waits up to `acceptTimeout` for its client.
    public func open(acceptTimeout: Duration? = nil) throws(TransportError) -> any HCITransport {
        switch self {
        case let .hciSocket(name): return try HCISocketTransport(name: name)
        case let .serial(path, baud, flow):
            return try SerialTransport.open(path: path, baudRate: baud, hardwareFlowControl: flow, name: description)
        case let .tcpClient(host, port): return try TCPTransport.connect(host: host, port: port, name: description)
        case let .tcpServer(host, port): return try TCPTransport.accept(host: host, port: port, name: description, timeout: acceptTimeout)
        case let .vhci(path): return try VHCITransport(path: path, name: description)
        case let .characterDevice(path): return try CharacterDeviceTransport.open(path: path, name: description)
        case let .inProcess(factory): return try factory.open()
        }
    }
}
