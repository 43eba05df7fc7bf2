import SwiftATTHCI
import SwiftATTL2CAP
import Testing
import TestSupport

/// L2CAP recombination and fragmentation (Core 5.4 Vol 3 Part A §7.2), including every
/// malformed sequence a peer or controller can produce.
@Suite struct RecombinerTests {
    static func frame(channel: UInt16 = 4, payload: [UInt8]) -> [UInt8] {
        [UInt8(payload.count & 0xFF), UInt8(payload.count >> 8), UInt8(channel & 0xFF), UInt8(channel >> 8)] + payload
    }

    static func packet(_ handle: UInt16, _ boundary: ACLDataPacket.PacketBoundary, _ bytes: [UInt8]) -> ACLDataPacket {
        ACLDataPacket(handle: handle, packetBoundary: boundary, data: bytes[...])
    }

    @Test func wholeFrameIsAViewWithoutCopy() {
        var r = L2CAPRecombiner()
        let bytes = Self.frame(payload: [0x0A, 0x03, 0x00])
        let outcome = r.push(Self.packet(0x40, .firstFlushable, bytes))
        #expect(outcome.dropped == nil)
        let frame = try! #require(outcome.frame)
        #expect(frame.connectionHandle == 0x40 && frame.channel == 4)
        #expect(Array(frame.payload) == [0x0A, 0x03, 0x00])
        // The payload shares the packet's storage.
        bytes.withUnsafeBufferPointer { buffer in
            frame.payload.withUnsafeBufferPointer { view in
                #expect(view.baseAddress == buffer.baseAddress! + 4)
            }
        }
    }

    /// What partial frames hold is counted, per handle, and freed when they complete,
    /// are dropped or their link goes; a frame longer than the limit holds nothing.
    @Test func bufferedOctetsAreCountedAndFreed() {
        var r = L2CAPRecombiner(maximumPayloadLength: 100)
        _ = r.push(Self.packet(1, .firstNonFlushable, Array(Self.frame(payload: Array(repeating: 1, count: 100)).prefix(30))))
        _ = r.push(Self.packet(2, .firstNonFlushable, Array(Self.frame(payload: Array(repeating: 2, count: 50)).prefix(14))))
        #expect(r.pendingCount == 2 && r.bufferedByteCount == 26 + 10)
        let whole = r.push(Self.packet(1, .continuing, Array(repeating: 1, count: 74)))
        #expect(whole.frame?.payload.count == 100)
        #expect(r.pendingCount == 1 && r.bufferedByteCount == 10)
        r.reset(handle: 2)
        #expect(r.pendingCount == 0 && r.bufferedByteCount == 0)
        let tooLong = r.push(Self.packet(3, .firstNonFlushable, [0xFF, 0xFF, 0x04, 0x00, 0x0A]))
        #expect(tooLong.dropped == .frameTooLong(handle: 3, length: 0xFFFF, limit: 100))
        #expect(r.pendingCount == 0 && r.bufferedByteCount == 0)
    }

    /// A frame cut at every possible position into two fragments reassembles.
    @Test func everySplitReassembles() {
        let payload = (0..<60).map { UInt8($0) }
        let bytes = Self.frame(payload: payload)
        for cut in 1..<bytes.count {
            var r = L2CAPRecombiner()
            let first = r.push(Self.packet(1, .firstNonFlushable, Array(bytes[..<cut])))
            #expect(first.frame == nil && first.dropped == nil)
            let second = r.push(Self.packet(1, .continuing, Array(bytes[cut...])))
            #expect(second.frame.map { Array($0.payload) } == payload, "cut at \(cut)")
            #expect(r.pendingCount == 0)
        }
    }

    @Test func manySmallFragmentsAndInterleavedHandles() {
        var r = L2CAPRecombiner()
        let a = Self.frame(payload: (0..<100).map { UInt8($0) })
        let b = Self.frame(channel: 6, payload: (0..<50).map { UInt8(255 - $0) })
        var frames: [L2CAPFrame] = []
        for (i, start) in stride(from: 0, to: 104, by: 27).enumerated() {
            let chunk = Array(a[start..<min(a.count, start + 27)])
            if let f = r.push(Self.packet(1, i == 0 ? .firstNonFlushable : .continuing, chunk)).frame { frames.append(f) }
            if i * 27 < b.count {
                let bChunk = Array(b[(i * 27)..<min(b.count, i * 27 + 27)])
                if let f = r.push(Self.packet(2, i == 0 ? .firstNonFlushable : .continuing, bChunk)).frame { frames.append(f) }
            }
        }
        #expect(frames.count == 2)
        #expect(frames.first { $0.connectionHandle == 1 }.map { Array($0.payload) } == Array(a.dropFirst(4)))
        #expect(frames.first { $0.connectionHandle == 2 }?.channel == 6)
    }

    @Test func continuationWithoutStartIsDropped() {
        var r = L2CAPRecombiner()
        let outcome = r.push(Self.packet(3, .continuing, [1, 2, 3]))
        #expect(outcome.frame == nil)
        #expect(outcome.dropped == .continuationWithoutStart(handle: 3))
        #expect(r.pendingCount == 0)
    }

    /// A frame announcing 64 KiB is refused at its first fragment: nothing is buffered.
    @Test func frameAnnouncingTooMuchIsRefusedWithoutBuffering() {
        var r = L2CAPRecombiner(maximumPayloadLength: 1024)
        let outcome = r.push(Self.packet(1, .firstNonFlushable, [0xFF, 0xFF, 0x04, 0x00, 1, 2, 3]))
        #expect(outcome.dropped == .frameTooLong(handle: 1, length: 65535, limit: 1024))
        #expect(r.pendingCount == 0)
        // The continuations that follow are dropped too, without growing anything.
        for _ in 0..<100 {
            #expect(r.push(Self.packet(1, .continuing, [UInt8](repeating: 0, count: 27))).dropped == .continuationWithoutStart(handle: 1))
        }
        #expect(r.pendingCount == 0)
    }

    @Test func longerThanAnnouncedIsDropped() {
        var r = L2CAPRecombiner()
        #expect(r.push(Self.packet(1, .firstNonFlushable, Self.frame(payload: [1, 2]) + [3])).dropped
            == .longerThanAnnounced(handle: 1, announced: 2, received: 3))
        _ = r.push(Self.packet(1, .firstNonFlushable, Array(Self.frame(payload: [1, 2, 3, 4]).prefix(6))))
        #expect(r.push(Self.packet(1, .continuing, [3, 4, 5])).dropped == .longerThanAnnounced(handle: 1, announced: 4, received: 5))
        #expect(r.pendingCount == 0)
    }

    /// A new start while a frame is incomplete: the old one is reported lost and the new
    /// one still counts (here it is complete at once).
    @Test func newStartAbandonsTheIncompleteFrame() {
        var r = L2CAPRecombiner()
        _ = r.push(Self.packet(1, .firstNonFlushable, Array(Self.frame(payload: [1, 2, 3, 4]).prefix(5))))
        let outcome = r.push(Self.packet(1, .firstFlushable, Self.frame(payload: [9])))
        #expect(outcome.dropped == .startBeforePreviousCompleted(handle: 1, missing: 3))
        #expect(outcome.frame.map { Array($0.payload) } == [9])
    }

    @Test func resetForgetsAHandle() {
        var r = L2CAPRecombiner()
        _ = r.push(Self.packet(1, .firstNonFlushable, Array(Self.frame(payload: [1, 2, 3, 4]).prefix(5))))
        #expect(r.pendingCount == 1)
        r.reset(handle: 1)
        #expect(r.pendingCount == 0)
    }

    /// Seeded random fragment streams over several handles never trap, and memory
    /// (pending frames) stays bounded by the handle count.
    @Test func randomFragmentStreamsNeverTrap() {
        var rng = SplitMix64(seed: 0x5EED)
        var r = L2CAPRecombiner(maximumPayloadLength: 600)
        for _ in 0..<50_000 {
            let handle = UInt16(rng.next() % 4)
            let boundary = ACLDataPacket.PacketBoundary(rawValue: UInt8(rng.next() % 4))!
            let length = Int(rng.next() % 40)
            let bytes = (0..<length).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            _ = r.push(Self.packet(handle, boundary, bytes))
            #expect(r.pendingCount <= 4)
        }
    }

    /// The packets `encodePackets` emits, decoded as a controller would read them.
    static func fragments(_ payload: [UInt8], channel: UInt16 = 4, handle: UInt16 = 0x41, bufferLength: Int) throws -> [ACLDataPacket] {
        var encoded: [ArraySlice<UInt8>] = []
        L2CAPFragmenter.encodePackets(channel: channel, payload: EncodedBytes(payload), handle: handle, bufferLength: bufferLength) {
            encoded.append($0)
        }
        return try encoded.map { try ACLDataPacket(parsing: $0) }
    }

    @Test("the send path's packets, byte for byte: one that fits, and one cut in three")
    func fragmenterGoldenBytes() {
        var one: [[UInt8]] = []
        L2CAPFragmenter.encodePackets(channel: 4, payload: EncodedBytes([0x1B, 0x03, 0x00, 0x2A]), handle: 0x0041, bufferLength: 27) {
            one.append(Array($0))
        }
        // Handle 0x041 with PB 00 (first, non-flushable); ACL length 8; L2CAP length 4, channel 4.
        #expect(one == [[0x41, 0x00, 0x08, 0x00, 0x04, 0x00, 0x04, 0x00, 0x1B, 0x03, 0x00, 0x2A]])
        var three: [[UInt8]] = []
        L2CAPFragmenter.encodePackets(channel: 4, payload: EncodedBytes([0x1B, 0x03, 0x00, 0x2A, 0x2B]), handle: 0x0041, bufferLength: 4) {
            three.append(Array($0))
        }
        #expect(three == [
            [0x41, 0x00, 0x04, 0x00, 0x05, 0x00, 0x04, 0x00],   // L2CAP header
            [0x41, 0x10, 0x04, 0x00, 0x1B, 0x03, 0x00, 0x2A],   // PB 01: continuing
            [0x41, 0x10, 0x01, 0x00, 0x2B],
        ])
    }

    @Test(arguments: [1, 23, 27, 251])
    func fragmenterRoundTrips(bufferLength: Int) throws {
        let payload = (0..<300).map { UInt8(truncatingIfNeeded: $0) }
        let packets = try Self.fragments(payload, bufferLength: bufferLength)
        #expect(packets.count == (304 + bufferLength - 1) / bufferLength)
        #expect(packets.allSatisfy { $0.data.count <= bufferLength && $0.handle == 0x41 })
        #expect(packets.first?.packetBoundary == .firstNonFlushable)
        #expect(packets.dropFirst().allSatisfy { $0.packetBoundary == .continuing })
        var r = L2CAPRecombiner()
        var frames: [L2CAPFrame] = []
        for p in packets {
            if let f = r.push(p).frame { frames.append(f) }
        }
        #expect(frames.count == 1)
        #expect(frames.first.map { Array($0.payload) } == payload)
        #expect(frames.first?.channel == 4)
    }
}

/// `L2CAPRecombiner.wholeFrame(in:)`, the host's shortcut for a frame in one packet: it
/// locates exactly the frame `push` returns, and declines everything `push` would
/// refuse, hold or drop.
@Suite struct WholeFrameShortcutTests {
    /// A Handle Value Notification (1B 2A00 0102) on the ATT channel, handle 0x0040,
    /// first automatically-flushable fragment: ACL header 40 20 0800, L2CAP 0400 0400.
    static let notification: [UInt8] = [0x40, 0x20, 0x08, 0x00, 0x04, 0x00, 0x04, 0x00, 0x1B, 0x2A, 0x00, 0x01]

    @Test func aFrameInOnePacketIsFoundWhereItLies() throws {
        var r = L2CAPRecombiner()
        let bytes = Self.notification
        let whole = try #require(r.wholeFrame(in: bytes[...]))
        #expect(whole == L2CAPRecombiner.WholeFrame(handle: 0x0040, channel: 4, payload: 8..<12))
        let pushed = r.push(try ACLDataPacket(parsing: bytes[...]))
        #expect(pushed.dropped == nil)
        #expect(pushed.frame == L2CAPFrame(connectionHandle: 0x0040, channel: 4, payload: bytes[whole.payload]))
        // Indices are the slice's own: the packet within a larger buffer.
        let inBuffer = [0xEE, 0xEE, 0xEE] + bytes
        #expect(r.wholeFrame(in: inBuffer[3...])?.payload == 11..<15)
    }

    @Test func everyStartFlagCountsAndAContinuationDoesNot() {
        let r = L2CAPRecombiner()
        for flags: UInt8 in [0x00, 0x20, 0x30, 0x60, 0xA0] {  // 0x60, 0xA0: broadcast bits set
            var bytes = Self.notification
            bytes[1] = flags
            #expect(r.wholeFrame(in: bytes[...])?.handle == 0x0040, "flags \(flags)")
        }
        var continuation = Self.notification
        continuation[1] = 0x10
        #expect(r.wholeFrame(in: continuation[...]) == nil)
    }

    @Test func anEmptyFrameIsWhole() {
        let bytes: [UInt8] = [0x40, 0x20, 0x04, 0x00, 0x00, 0x00, 0x04, 0x00]
        #expect(L2CAPRecombiner().wholeFrame(in: bytes[...]) == L2CAPRecombiner.WholeFrame(handle: 0x0040, channel: 4, payload: 8..<8))
    }

    /// Each of these `push` refuses, holds or drops: the shortcut declines them all.
    @Test(arguments: [
        [0x40, 0x20, 0x03, 0x00, 0x00, 0x00, 0x04],                    // ACL data shorter than an L2CAP header
        [0x40, 0x20, 0x09, 0x00, 0x04, 0x00, 0x04, 0x00, 0x1B, 0x2A, 0x00, 0x01],        // ACL length says 9, 8 present
        [0x40, 0x20, 0x08, 0x00, 0x06, 0x00, 0x04, 0x00, 0x1B, 0x2A, 0x00, 0x01],        // L2CAP length 6, 4 present: a start
        [0x40, 0x20, 0x08, 0x00, 0x02, 0x00, 0x04, 0x00, 0x1B, 0x2A, 0x00, 0x01],        // L2CAP length 2, 4 present: too long
        [0x40, 0x20],                                                  // half a header
        [],
    ] as [[UInt8]])
    func whatPushWouldNotCompleteIsDeclined(_ bytes: [UInt8]) {
        #expect(L2CAPRecombiner().wholeFrame(in: bytes[...]) == nil)
    }

    @Test func aFrameOverTheLimitIsLeftToPushToDrop() {
        var r = L2CAPRecombiner(maximumPayloadLength: 3)
        #expect(r.wholeFrame(in: Self.notification[...]) == nil)
        #expect(r.push(try! ACLDataPacket(parsing: Self.notification[...])).dropped == .frameTooLong(handle: 0x0040, length: 4, limit: 3))
    }

    @Test func aFrameInProgressAnywhereLeavesEveryPacketToPush() throws {
        var r = L2CAPRecombiner()
        // Handle 0x0041 has half a frame: a whole frame on 0x0040 still goes through push.
        _ = r.push(ACLDataPacket(handle: 0x0041, packetBoundary: .firstNonFlushable, data: [0x08, 0x00, 0x04, 0x00, 0x1B][...]))
        #expect(r.wholeFrame(in: Self.notification[...]) == nil)
        #expect(r.push(try ACLDataPacket(parsing: Self.notification[...])).frame?.payload.count == 4)
    }
}
