#if canImport(Glibc)
import Glibc
#endif
import SwiftATTHCI
import PseudoTerminal
import Testing
import SwiftATTTransport

/// TCP and serial transports over real descriptors: a loopback TCP connection and a
/// pseudo-terminal, with packets split across writes.
@Suite struct StreamTransportTests {
    static let reset: [UInt8] = [0x01, 0x03, 0x0C, 0x00]
    static let resetComplete: [UInt8] = [0x04, 0x0E, 0x04, 0x01, 0x03, 0x0C, 0x00]

    /// A connected client/server pair on loopback, without threads: the kernel completes
    /// the handshake from the listen backlog before accept.
    static func connectedPair() throws -> (client: StreamTransport, server: StreamTransport) {
        let listener = try TCPTransport.listen(host: "127.0.0.1", port: 0, name: "listener")
        defer { close(listener) }
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        let port = UInt16(bigEndian: address.sin_port)
        let client = try TCPTransport.connect(host: "127.0.0.1", port: port, name: "tcp:127.0.0.1:\(port)")
        let server = try TCPTransport.accept(listener: listener, name: "server", timeout: .seconds(5))
        return (client, server)
    }

    @Test func tcpCarriesPacketsBothWays() throws {
        let (client, server) = try Self.connectedPair()
        try client.send(HCIPacket(type: .command, bytes: Self.reset.dropFirst()))
        let commands = try server.receive(timeout: .seconds(5))
        #expect(commands == [HCIPacket(type: .command, bytes: [0x03, 0x0C, 0x00])])
        try server.send(HCIPacket(type: .event, bytes: Self.resetComplete.dropFirst()))
        let events = try client.receive(timeout: .seconds(5))
        #expect(events.map(\.type) == [.event])
        #expect(Array(events[0].bytes) == Array(Self.resetComplete.dropFirst()))
    }

    /// A command sent as a command (framed on the stack) arrives as the same bytes as
    /// the packet it encodes to, and between ACL sent the other way.
    @Test func aCommandFramedOnTheStackArrivesAsItsPacket() throws {
        let (client, server) = try Self.connectedPair()
        let parameters: [UInt8] = [0x20, 0x00, 0x40, 0x00, 0x00]
        let command = HCICommandPacket(opcode: HCIOpcode(rawValue: 0x2006), parameters: parameters[...])
        try client.send(command: command)
        try client.send(HCIPacket(type: .aclData, bytes: [0x40, 0x00, 0x01, 0x00, 0xAA]))
        try client.send(command: HCICommandPacket(opcode: Reset.opcode, parameters: []))
        var packets: [HCIPacket] = []
        while packets.count < 3 {
            let more = try server.receive(timeout: .seconds(5))
            if more.isEmpty { break }
            packets += more
        }
        #expect(packets == [HCIPacket(type: .command, bytes: command.encoded()[...]),
                            HCIPacket(type: .aclData, bytes: [0x40, 0x00, 0x01, 0x00, 0xAA]),
                            HCIPacket(type: .command, bytes: [0x03, 0x0C, 0x00])])
    }

    @Test func severalPacketsSentTogetherArriveWholeAndInOrder() throws {
        let (client, server) = try Self.connectedPair()
        let packets = (0..<20).map { n in
            HCIPacket(type: .aclData, bytes: [0x40, 0x00, 0x02, 0x00, UInt8(n), 0xAA][...])
        }
        try client.send(contentsOf: packets)
        var received: [HCIPacket] = []
        while received.count < packets.count {
            let more = try server.receive(timeout: .seconds(5))
            if more.isEmpty { break }
            received += more
        }
        #expect(received == packets)
    }

    @Test func packetsSplitAcrossWritesAreReassembled() throws {
        let (client, server) = try Self.connectedPair()
        // An ACL packet of 300 bytes, written one byte at a time by the raw socket.
        var acl: [UInt8] = [0x02, 0x40, 0x00, 0x2C, 0x01]
        acl += (0..<300).map { UInt8($0 & 0xFF) }
        for byte in acl {
            _ = withUnsafeBytes(of: byte) { write(server.fileDescriptor, $0.baseAddress!, 1) }
        }
        var received: [HCIPacket] = []
        while received.isEmpty { received += try client.receive(timeout: .seconds(5)) }
        #expect(received.count == 1)
        #expect(received[0].type == .aclData)
        #expect(Array(received[0].bytes) == Array(acl.dropFirst()))
    }

    @Test func nothingArrivesWithinTimeout() throws {
        let (client, server) = try Self.connectedPair()
        let start = ContinuousClock.now
        #expect(try client.receive(timeout: .milliseconds(50)).isEmpty)
        #expect(ContinuousClock.now - start >= .milliseconds(45))
        withExtendedLifetime(server) {}
    }

    @Test func peerClosingIsReportedAsClosed() throws {
        let (client, server) = try Self.connectedPair()
        server.close()
        #expect(throws: TransportError.closed(client.name)) { _ = try client.receive(timeout: .seconds(5)) }
    }

    /// Sending to a peer that has gone ends in `.closed` and raises no SIGPIPE, whose
    /// default action would kill the application. The signal is blocked on this thread
    /// for the test, so a raised one stays pending where `sigpending` sees it (the test
    /// process does not ignore SIGPIPE, which would discard it unseen).
    @Test func sendingToAPeerThatHasGoneRaisesNoSIGPIPE() throws {
        let (client, server) = try Self.connectedPair()
        server.close()
        var pipeSignal = sigset_t()
        sigemptyset(&pipeSignal)
        sigaddset(&pipeSignal, SIGPIPE)
        var previous = sigset_t()
        pthread_sigmask(SIG_BLOCK, &pipeSignal, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        // The first write after the close reaches the peer's kernel, which answers with
        // a reset; a later one fails with EPIPE.
        var failure: TransportError?
        for _ in 0..<50 where failure == nil {
            do { try client.send(HCIPacket(type: .command, bytes: Self.reset.dropFirst())) } catch { failure = error }
            usleep(10_000)
        }
        var pending = sigset_t()
        sigpending(&pending)
        let raised = sigismember(&pending, SIGPIPE) == 1
        if raised {
            var now = timespec(tv_sec: 0, tv_nsec: 0)
            _ = sigtimedwait(&pipeSignal, nil, &now)
        }
        #expect(failure == .closed(client.name))
        #expect(!raised, "a write to the closed socket raised SIGPIPE")
    }

    @Test func badIndicatorIsAFramingError() throws {
        let (client, server) = try Self.connectedPair()
        let junk: [UInt8] = [0x09, 0x00]
        _ = junk.withUnsafeBytes { write(server.fileDescriptor, $0.baseAddress!, 2) }
        #expect(throws: TransportError.self) { _ = try client.receive(timeout: .seconds(5)) }
    }

    @Test func connectionRefusedNamesTheErrno() throws {
        // Bind a port, then close it: nobody listens there.
        let listener = try TCPTransport.listen(host: "127.0.0.1", port: 0, name: "x")
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        close(listener)
        let port = UInt16(bigEndian: address.sin_port)
        do {
            _ = try TCPTransport.connect(host: "127.0.0.1", port: port, name: "tcp:127.0.0.1:\(port)")
            Issue.record("connect to a closed port succeeded")
        } catch {
            #expect(error.description.contains("ECONNREFUSED"), "\(error)")
        }
    }

    /// The serial transport on a pseudo-terminal: raw mode, so bytes pass unchanged.
    @Test func serialOverPseudoTerminal() throws {
        var name = [CChar](repeating: 0, count: 128)
        let master = pseudo_terminal_open(&name, 128)
        try #require(master >= 0)
        defer { close(master) }
        let path = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let serial = try SerialTransport.open(path: path, baudRate: 1_000_000, hardwareFlowControl: false, name: "serial:\(path)")
        // 0x0A and 0x0D would be mangled by a terminal not in raw mode.
        let event: [UInt8] = [0x04, 0x0E, 0x05, 0x01, 0x0A, 0x0D, 0x00, 0x0D]
        _ = event.withUnsafeBytes { write(master, $0.baseAddress!, $0.count) }
        let packets = try serial.receive(timeout: .seconds(5))
        #expect(packets.count == 1)
        #expect(Array(packets[0].bytes) == Array(event.dropFirst()))
        try serial.send(HCIPacket(type: .command, bytes: [0x03, 0x0C, 0x00]))
        var out = [UInt8](repeating: 0, count: 16)
        let n = out.withUnsafeMutableBytes { read(master, $0.baseAddress!, 16) }
        #expect(Array(out[..<max(0, n)]) == Self.reset)
    }

    @Test func serialRejectsUnknownBaudRate() {
        #expect(throws: TransportError.self) {
            _ = try SerialTransport.open(path: "/dev/null", baudRate: 12345, hardwareFlowControl: false, name: "serial:/dev/null@12345")
        }
    }

    @Test func serialOnANonTerminalSaysSo() {
        do {
            _ = try SerialTransport.open(path: "/dev/null", baudRate: 115_200, hardwareFlowControl: false, name: "serial:/dev/null")
            Issue.record("opened /dev/null as a serial port")
        } catch {
            #expect(error.description.contains("tcgetattr"), "\(error)")
        }
    }
}
