#if canImport(Glibc)
import Glibc
#endif
import SwiftATTHCI
import SwiftATTTransport

/// `swift-att bridge <A> <B>`: joins two HCI endpoints packet for packet, as BlueZ's
/// btproxy and btattach do. With `vhci` on one side, a controller reached over TCP or a
/// UART appears to this kernel as a new `hciN` (the relay inside the kernel test bench).
///
/// One thread, one `poll(2)` over both endpoints and the signal pipe; each endpoint's
/// transport frames packets its own way (vhci: one per read/write, streams: by H4
/// header), so whatever one side delivers whole is written whole to the other.
enum BridgeCommand {
    static func run(_ arguments: [String]) throws(CommandError) -> Int32 {
        let args = try Arguments(arguments, flags: ["--quiet"], command: "bridge")
        if args.wantsHelp {
            Output.print(Usage.bridge)
            return 0
        }
        guard args.positionals.count == 2 else {
            throw .usage("bridge: give two endpoints, e.g. 'swift-att bridge vhci tcp:127.0.0.1:9000' (see 'swift-att bridge --help')")
        }
        var specifications: [TransportSpecification] = []
        for text in args.positionals {
            do {
                specifications.append(try TransportSpecification(parsing: text))
            } catch {
                throw .usage(error.description)
            }
        }
        guard specifications[0] != specifications[1] else { throw .usage("bridge: the two endpoints are the same") }
        let quiet = args.has("--quiet")
        for specification in specifications { try ControllerSession.resolveHost(specification) }

        // The controller side first: once vhci exists the kernel starts sending commands,
        // and it gives up on a command after two seconds.
        let order = specifications[0].isVHCI ? [1, 0] : [0, 1]
        var endpoints: [Int: any HCITransport] = [:]
        for i in order {
            if !quiet {
                ControllerSession.announceWaiting(specifications[i], for: "the other end of the bridge (\(specifications[1 - i]))", upTo: nil)
            }
            do {
                endpoints[i] = try specifications[i].open()
            } catch {
                for opened in endpoints.values { opened.close() }
                throw .failure(error.description)
            }
        }
        let a = endpoints[0]!, b = endpoints[1]!
        defer { a.close(); b.close() }
        // Only now: while an endpoint is still opening (a tcp-server waiting for its
        // client, without limit) Ctrl-C and SIGTERM keep their default action and end the
        // process; a handler would only wake the forwarding loop, which is not running yet.
        _ = InputWatcher.installSignalHandlers()
        if !quiet { Output.print("bridge: \(a.name) <-> \(b.name)"); Output.flush() }

        var session = Session(a: a, b: b, quiet: quiet)
        let outcome = session.run()
        if !quiet {
            Output.print("bridge: stopped (\(outcome.reason)): \(String(count: session.forwarded[0], "packet")) \(a.name) -> \(b.name), \(String(count: session.forwarded[1], "packet")) \(b.name) -> \(a.name)")
        }
        if let failure = outcome.failure { throw .failure(failure.description) }
        return 0
    }

    /// Why the bridge stopped.
    struct Outcome {
        var reason: String
        var failure: TransportError?
    }

    /// The forwarding loop over two open endpoints.
    struct Session {
        let a: any HCITransport
        let b: any HCITransport
        let quiet: Bool
        var forwarded = [0, 0]
        private var announcedAdapter = false

        init(a: any HCITransport, b: any HCITransport, quiet: Bool) {
            self.a = a
            self.b = b
            self.quiet = quiet
        }

        mutating func run() -> Outcome {
            var fds = [
                pollfd(fd: a.fileDescriptor, events: Int16(POLLIN), revents: 0),
                pollfd(fd: b.fileDescriptor, events: Int16(POLLIN), revents: 0),
                pollfd(fd: terminationPipe.read, events: Int16(POLLIN), revents: 0),
            ]
            while true {
                let n = poll(&fds, nfds_t(fds.count), -1)
                if n < 0 {
                    if errno == EINTR { continue }
                    return Outcome(reason: "poll failed", failure: .systemCall("poll", .current, context: "bridge"))
                }
                if fds[2].revents != 0 {
                    var signo: UInt8 = 0
                    _ = read(terminationPipe.read, &signo, 1)
                    return Outcome(reason: Int32(signo) == SIGTERM ? "SIGTERM" : "SIGINT")
                }
                for (side, (from, to)) in [(a, b), (b, a)].enumerated() where fds[side].revents != 0 {
                    if let failure = forward(from: from, to: to, side: side) {
                        if case .closed = failure { return Outcome(reason: "\(failure)", failure: failure) }
                        return Outcome(reason: "failed", failure: failure)
                    }
                }
            }
        }

        /// Moves what `from` has ready to `to`; the first error ends the bridge.
        private mutating func forward(from: any HCITransport, to: any HCITransport, side: Int) -> TransportError? {
            var failure: TransportError?
            var count = 0
            do throws(TransportError) {
                try from.receive { packet in
                    guard failure == nil else { return }
                    do throws(TransportError) {
                        try to.send(packet)
                        count += 1
                    } catch {
                        failure = error
                    }
                }
            } catch {
                failure = failure ?? error
            }
            forwarded[side] += count
            announceAdapter(from)
            return failure
        }

        /// "vhci: the kernel created hci0", once: what a user of the bridge waits for.
        private mutating func announceAdapter(_ endpoint: any HCITransport) {
            guard !announcedAdapter, !quiet, let vhci = endpoint as? VHCITransport, let index = vhci.adapterIndex else { return }
            announcedAdapter = true
            Output.print("bridge: the kernel created hci\(index)")
            Output.flush()
        }
    }
}

extension TransportSpecification {
    fileprivate var isVHCI: Bool {
        if case .vhci = self { return true }
        return false
    }
}
