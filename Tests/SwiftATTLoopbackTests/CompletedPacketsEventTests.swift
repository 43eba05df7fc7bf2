import Foundation
import Glibc
import SwiftATTCore
import SwiftATTHCI
import SwiftATTHost
import SwiftATTTransport
import Testing

/// Number Of Completed Packets is taken where it lies when no listener of
/// `Controller.events()` wants it, and decoded as an `HCIEvent` for the listeners when
/// some do: either way a malformed one is dropped and the host goes on, and a listener
/// hears every valid one. The controller is played by the test over TCP (H4), which
/// writes the events no virtual controller would.
@Suite struct CompletedPacketsEventTests {
    /// A controller the test scripts: it accepts the host's connection, reads its
    /// commands and writes the bytes it is given. Its blocking calls run on threads of
    /// their own, never on Swift's cooperative pool (Testing.md, "When a test run
    /// stalls"): a read there waiting for a command that a task on the pool has yet to
    /// send held one of the pool's two threads, and with the other held too, nothing ran.
    final class ScriptedController: Sendable {
        let listener: Int32
        let port: UInt16

        init() throws {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = HostEventLoopTests.loopbackAddress(port: 0)
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(fd, $0, length) == 0 && listen(fd, 1) == 0 && getsockname(fd, $0, &length) == 0
                }
            }
            listener = fd
            port = UInt16(bigEndian: address.sin_port)
            try #require(bound, "no listening socket: errno \(errno)")
        }

        deinit { close(listener) }

        /// The host's connection, once it has connected.
        func accepted() async -> Int32 {
            let listener = self.listener
            return await Self.offThePool { accept(listener, nil, nil) }
        }

        /// The next command the host wrote: its opcode, or nil if the host closed the
        /// connection first.
        static func readCommand(_ fd: Int32) async -> UInt16? {
            await offThePool {
                guard let header = read(fd, count: 4), header[0] == 0x01,
                      read(fd, count: Int(header[3])) != nil else { return nil }
                return UInt16(header[1]) | UInt16(header[2]) << 8
            }
        }

        private static func read(_ fd: Int32, count: Int) -> [UInt8]? {
            var bytes = [UInt8](repeating: 0, count: count)
            var got = 0
            while got < count {
                let n = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + got, count - got) }
                guard n > 0 else { return nil }
                got += n
            }
            return bytes
        }

        /// Runs `body` on a thread of its own and returns what it returned.
        private static func offThePool<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
            await withCheckedContinuation { done in
                Thread.detachNewThread { done.resume(returning: body()) }
            }
        }

        static func write(_ fd: Int32, _ bytes: [UInt8]) {
            _ = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        }
    }

    /// Read BD_ADDR's Command Complete, with one credit and address 66:55:44:33:22:11.
    static let readBDADDRComplete: [UInt8] = [0x04, 0x0E, 0x0A, 0x01, 0x09, 0x10, 0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66]
    /// Two handles announced, one present: Num_Handles does not match the length.
    static let malformed: [UInt8] = [0x04, 0x13, 0x05, 0x02, 0x40, 0x00, 0x01, 0x00]
    static let valid: [UInt8] = [0x04, 0x13, 0x05, 0x01, 0x40, 0x00, 0x01, 0x00]

    @Test func aMalformedOneIsDroppedAndListenersHearEveryValidOne() async throws {
        let script = try ScriptedController()
        let connection = Task { await script.accepted() }
        let host = try await Controller.open(try TransportSpecification(parsing: "tcp:127.0.0.1:\(script.port)"))
        let fd = await connection.value
        try #require(fd >= 0)
        defer { close(fd) }

        // No listener: taken where it lies. The malformed one is dropped, the valid one
        // (for a link the host does not know) frees nothing, and the answer still comes.
        let first = Task { try await host.send(ReadBDADDR()) }
        #expect(await ScriptedController.readCommand(fd) == ReadBDADDR.opcode.rawValue)
        ScriptedController.write(fd, Self.malformed + Self.valid + Self.readBDADDRComplete)
        #expect(try await first.value.address == BluetoothAddress(0x6655_4433_2211))

        // With a listener: decoded for it; the malformed one is still dropped.
        let events = host.events()
        let second = Task { try await host.send(ReadBDADDR()) }
        #expect(await ScriptedController.readCommand(fd) == ReadBDADDR.opcode.rawValue)
        ScriptedController.write(fd, Self.malformed + Self.valid + Self.readBDADDRComplete)
        #expect(try await second.value.address == BluetoothAddress(0x6655_4433_2211))
        // Closed first, so that the stream ends after what it holds: a wait that cannot hang.
        await host.close()
        var heard: [HCIEvent] = []
        for await event in events { heard.append(event) }
        guard heard.count == 1, case let .numberOfCompletedPackets(completed) = heard[0] else {
            Issue.record("the listener heard \(heard), not the one valid Number Of Completed Packets")
            return
        }
        #expect(Array(completed.entries) == [NumberOfCompletedPackets.Entry(connectionHandle: 0x0040, numCompletedPackets: 1)])
    }
}
