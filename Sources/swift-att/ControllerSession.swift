#if canImport(Glibc)
import Glibc
#endif
import SwiftATTHost
import SwiftATTTransport

/// Opening a controller from the command line, the same way for every command that talks
/// to one (info, peripheral, central): `--transport` (or $SWIFT_ATT_TRANSPORT, default
/// hci0) and `--btsnoop FILE`.
enum ControllerSession {
    static func specification(_ args: Arguments) throws(CommandError) -> TransportSpecification {
        let text = args.option("--transport") ?? environment("SWIFT_ATT_TRANSPORT") ?? "hci0"
        do {
            return try TransportSpecification(parsing: text)
        } catch {
            throw .usage(error.description)
        }
    }

    static func open(_ specification: TransportSpecification, capture: String?) async throws(CommandError) -> Controller {
        try beforeOpening(specification)
        do {
            return try await Controller.open(specification, capturePath: capture)
        } catch {
            throw .failure(error.description)
        }
    }

    /// How long a host waits for a `tcp-server:` transport's client to connect
    /// (`TransportOpening`, in SwiftATTHost).
    static let tcpServerWait: Duration = .seconds(30)

    /// What a command does just before it opens `specification` for a host: a `tcp:`
    /// or `tcp-server:` host that does not resolve is said to be so (with getaddrinfo's
    /// reason), rather than as a transport that does not parse; a `tcp-server:` says
    /// that it waits for a controller, and for how long.
    static func beforeOpening(_ specification: TransportSpecification) throws(CommandError) {
        try resolveHost(specification)
        announceWaiting(specification, for: "a controller", upTo: tcpServerWait)
    }

    /// For a `tcp-server:` transport, a progress line that it waits for `client` to
    /// connect, up to `wait` (`nil`: as long as it takes); nothing for the others.
    static func announceWaiting(_ specification: TransportSpecification, for client: String, upTo wait: Duration?) {
        guard case let .tcpServer(host, port) = specification else { return }
        let place = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        let limit = wait.map { ", up to \(Int($0.components.seconds)) s" } ?? ""
        Output.progress("waiting for \(client) to connect to \(place) (tcp-server)\(limit)…")
    }

    /// Looks a `tcp:` or `tcp-server:` host up as the TCP transport will; a name that
    /// does not resolve is the transport failing (exit 3), said as a lookup's failure.
    static func resolveHost(_ specification: TransportSpecification) throws(CommandError) {
        let host: String, port: UInt16, passive: Bool
        switch specification {
        case let .tcpClient(h, p): (host, port, passive) = (h, p, false)
        case let .tcpServer(h, p): (host, port, passive) = (h, p, true)
        default: return
        }
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_family = AF_UNSPEC
        if passive { hints.ai_flags = AI_PASSIVE }
        var result: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &result)
        if status == 0 {
            freeaddrinfo(result)
            return
        }
        let reason = status == EAI_SYSTEM ? String(cString: strerror(errno)) : String(cString: gai_strerror(status))
        throw .failure("\(specification): cannot resolve the host '\(host)': \(reason)")
    }

    static func environment(_ name: String) -> String? {
        guard let value = getenv(name) else { return nil }
        return String(cString: value)
    }
}
