import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// TCP ports for the tests' own listeners — Bumble's controllers (`BumbleBench`), a
/// `tcp-server:` host — free when handed out, and never handed out twice in the test
/// process.
///
/// Every suite runs in one process, at once. A port checked free is not yet taken: two
/// tests that picked the same one before either bound it collided. Benches starting
/// side by side did (EADDRINUSE, "Bumble controllers did not start"), and so did a bench
/// and the loop's `tcp-server:` test (in a CI run the bench's controllers lost the bind,
/// the bench saw the test's listener on its port and connected to it, and the server's
/// wait for its controller ended early). One registry for both keeps them apart.
public enum FreePorts {
    /// Every port `take` has handed out in this process.
    private static let handedOut = Mutex<Set<UInt16>>([])

    /// `count` ports free now, from 20000–29999: below the kernel's ephemeral range
    /// (32768–60999), which the suite's own outgoing sockets draw from — one of them
    /// could take a port picked there between the pick and the listener's bind. Each is
    /// checked by binding it (and released). Fewer if fewer are found.
    public static func take(_ count: Int) -> [UInt16] {
        var ports: [UInt16] = []
        var candidate = UInt16.random(in: 20000...29999)
        for _ in 0..<10000 where ports.count < count {
            candidate = candidate >= 29999 ? 20000 : candidate + 1
            guard handedOut.withLock({ $0.insert(candidate).inserted }) else { continue }
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard fd >= 0 else { continue }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = candidate.bigEndian
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            close(fd)
            if bound == 0 { ports.append(candidate) }
        }
        return ports
    }
}
