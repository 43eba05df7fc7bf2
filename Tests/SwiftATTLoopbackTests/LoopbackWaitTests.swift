#if canImport(Glibc)
import Glibc
#endif
import SwiftATTHCI
import SwiftATTLoopback
import Testing
import SwiftATTTransport

/// How a loopback transport wakes its host (`HCITransport.prepareToWait`): a loop that
/// says it is running is handed packets without a byte on its descriptor and finds them
/// when it asks before blocking; a loop about to block, or a caller that only polls the
/// descriptor, is woken by a byte for each batch, and reading the batch takes the byte.
@Suite struct LoopbackWaitTests {
    /// Whether `transport`'s descriptor is readable now.
    static func readable(_ transport: any HCITransport) -> Bool {
        var pfd = pollfd(fd: transport.fileDescriptor, events: Int16(POLLIN), revents: 0)
        return poll(&pfd, 1, 0) == 1
    }

    /// Takes what waits for the host, without waiting.
    static func take(_ transport: any HCITransport) throws -> [HCIPacket] {
        var packets: [HCIPacket] = []
        try transport.receive { packets.append($0) }
        return packets
    }

    @Test func aRunningLoopIsHandedPacketsWithoutAWakeUpByte() throws {
        let transport = try LoopbackLink().addController().open()
        defer { transport.close() }
        #expect(transport.prepareToWait() == false, "nothing waits yet")
        transport.finishedWaiting()
        // Command Complete is queued for the host while it runs.
        try transport.send(Reset().packet)
        #expect(!Self.readable(transport), "a running loop needs no byte")
        #expect(transport.prepareToWait(), "the loop must not block: the answer waits")
        #expect(try Self.take(transport).count == 1)
        #expect(!Self.readable(transport))
        #expect(transport.prepareToWait() == false, "all taken")
    }

    @Test func aLoopAboutToBlockIsWokenOnceForABatch() throws {
        let transport = try LoopbackLink().addController().open()
        defer { transport.close() }
        #expect(transport.prepareToWait() == false)
        try transport.send(Reset().packet)
        try transport.send(ReadLocalVersionInformation().packet)
        #expect(Self.readable(transport), "a loop blocked in poll must wake")
        transport.finishedWaiting()
        #expect(try Self.take(transport).count == 2)
        #expect(!Self.readable(transport), "reading the batch takes its byte")
    }

    /// A caller that never says when it runs (a thread of its own polling the
    /// descriptor, as the fault tests' raw peer does) is woken for every batch.
    @Test func aCallerPollingOnlyTheDescriptorIsWokenForEveryBatch() throws {
        let transport = try LoopbackLink().addController().open()
        defer { transport.close() }
        for _ in 0..<3 {
            try transport.send(Reset().packet)
            #expect(Self.readable(transport))
            #expect(try Self.take(transport).count == 1)
            #expect(!Self.readable(transport))
        }
    }

    /// The byte of a batch handed over after the host took the previous one stays on the
    /// descriptor: it is that batch's wake-up, not the old one's.
    @Test func aByteForPacketsStillWaitingIsNotTaken() throws {
        let transport = try LoopbackLink().addController().open()
        defer { transport.close() }
        try transport.send(Reset().packet)
        #expect(try Self.take(transport).count == 1)
        try transport.send(Reset().packet)
        #expect(Self.readable(transport))
        #expect(try Self.take(transport).count == 1)
        #expect(!Self.readable(transport))
    }

    /// `receive(timeout:)` after a loop left the transport running does not block on a
    /// descriptor nobody will write to.
    @Test func receiveWithATimeoutFindsPacketsHandedOverWhileRunning() throws {
        let transport = try LoopbackLink().addController().open()
        defer { transport.close() }
        _ = transport.prepareToWait()
        transport.finishedWaiting()
        try transport.send(Reset().packet)
        // Waiting for a byte that never comes would return nothing when the time is up.
        #expect(try transport.receive(timeout: .seconds(5)).count == 1)
    }
}
