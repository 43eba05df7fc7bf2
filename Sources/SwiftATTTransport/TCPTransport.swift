#if canImport(Glibc)
import Glibc
#endif
// The socket constants come through the libbluetooth module too: it includes
// <sys/socket.h>, and in optimised builds that header's declarations belong to it.
import CSwiftATTBluetooth

/// H4 over TCP, the way Bumble's virtual controllers (and `btproxy`) are reached.
public enum TCPTransport {
    /// Connects to `host:port` (an IPv4 or IPv6 literal, or a name) and returns the
    /// stream transport, with Nagle's algorithm off: HCI is request/response and every
    /// packet matters at once.
    public static func connect(host: String, port: UInt16, name: String, timeout: Duration = .seconds(5)) throws(TransportError) -> StreamTransport {
        let fd = try withAddresses(host: host, port: port, name: name) { (info) throws(TransportError) -> Int32 in
            let fd = socket(info.pointee.ai_family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard fd >= 0 else { throw .systemCall("socket", .current, context: name) }
            try FileDescriptor.setNonBlocking(fd, context: name)
            if Glibc.connect(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) != 0 {
                let e = errno
                guard e == EINPROGRESS else { _ = Glibc.close(fd); throw .systemCall("connect to \(host):\(port)", Errno(e), context: name) }
                let ready: Bool
                do throws(TransportError) { ready = try FileDescriptor.waitWritable(fd, timeout: timeout, context: name) } catch { _ = Glibc.close(fd); throw error }
                guard ready else { _ = Glibc.close(fd); throw .timedOut("\(name): connect") }
                var soError: Int32 = 0
                var length = socklen_t(MemoryLayout<Int32>.size)
                getsockopt(fd, SOL_SOCKET, SO_ERROR, &soError, &length)
                guard soError == 0 else { _ = Glibc.close(fd); throw .systemCall("connect to \(host):\(port)", Errno(soError), context: name) }
            }
            return fd
        }
        setNoDelay(fd)
        return try StreamTransport(name: name, fileDescriptor: fd)
    }

    /// Listens on `host:port`, waits up to `timeout` for one client, and returns the
    /// stream to it (for bridging and for in-process controllers).
    public static func accept(host: String, port: UInt16, name: String, timeout: Duration?) throws(TransportError) -> StreamTransport {
        let listener = try listen(host: host, port: port, name: name)
        defer { _ = Glibc.close(listener) }
        return try accept(listener: listener, name: name, timeout: timeout)
    }

    /// Waits up to `timeout` for a client on a listening socket (see `listen`) and
    /// returns the stream to it; the listener stays open.
    public static func accept(listener: Int32, name: String, timeout: Duration?) throws(TransportError) -> StreamTransport {
        guard try FileDescriptor.waitReadable(listener, timeout: timeout, context: name) else {
            throw .timedOut("\(name): no client connected")
        }
        let fd = Glibc.accept(listener, nil, nil)
        guard fd >= 0 else { throw .systemCall("accept", .current, context: name) }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        setNoDelay(fd)
        return try StreamTransport(name: name, fileDescriptor: fd)
    }

    /// A listening socket on `host:port` with SO_REUSEADDR.
    public static func listen(host: String, port: UInt16, name: String) throws(TransportError) -> Int32 {
        try withAddresses(host: host, port: port, name: name, passive: true) { (info) throws(TransportError) -> Int32 in
            let fd = socket(info.pointee.ai_family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard fd >= 0 else { throw .systemCall("socket", .current, context: name) }
            var one: Int32 = 1
            setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
            guard bind(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 else {
                let e = Errno.current
                _ = Glibc.close(fd)
                throw .systemCall("bind to \(host):\(port)", e, context: name)
            }
            guard Glibc.listen(fd, 1) == 0 else {
                let e = Errno.current
                _ = Glibc.close(fd)
                throw .systemCall("listen", e, context: name)
            }
            return fd
        }
    }

    private static func setNoDelay(_ fd: Int32) {
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    }

    /// Resolves `host` and runs `body` on the first address.
    private static func withAddresses<T>(
        host: String, port: UInt16, name: String, passive: Bool = false,
        _ body: (UnsafeMutablePointer<addrinfo>) throws(TransportError) -> T
    ) throws(TransportError) -> T {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_family = AF_UNSPEC
        if passive { hints.ai_flags = AI_PASSIVE }
        var result: UnsafeMutablePointer<addrinfo>? = nil
        let rc = getaddrinfo(host, String(port), &hints, &result)
        guard rc == 0, let info = result else {
            let reason = String(cString: gai_strerror(rc))
            throw .invalidSpecification(name, reason: "cannot resolve '\(host)': \(reason)")
        }
        defer { freeaddrinfo(info) }
        return try body(info)
    }
}
