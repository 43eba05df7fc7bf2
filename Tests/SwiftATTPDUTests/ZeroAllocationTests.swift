import SwiftATTPDU
import Glibc
import HeapProbe
import Synchronization
import Testing

/// Decoding keeps views into the input, so it keeps no heap memory: over 10 000 decodes
/// whose results are all kept alive, this thread frees every block it allocates
/// (HeapProbe's malloc interposer counts both), and an optimised build calls the
/// allocator not once.
///
/// The counts are per thread, so tests running in parallel on other threads cannot
/// disturb them (a process-wide figure such as glibc's mallinfo2 made this suite flaky).
/// Each test is synchronous: nothing between two readings can move it to another thread.
/// Why two checks: `swift test` builds unoptimised, and there the standard library's
/// generics run unspecialised, whose coroutine frames (`Collection.first`, a slice's
/// subscript) malloc and free again within the call; that is the build, not the codec.
@Suite("Zero allocation", .enabled(if: heap_probe_is_available() != 0, "needs glibc's allocator, not a sanitizer's"))
struct ZeroAllocationTests {
    static let decodesPerTrial = 10_000

    /// What this thread did with the heap while running a body.
    struct HeapUse {
        var allocations: UInt64
        var frees: UInt64
        /// Blocks allocated and not freed again.
        var kept: Int64 { Int64(bitPattern: allocations &- frees) }
    }

    static func heapUse(in body: () -> Void) -> HeapUse {
        let allocations = heap_probe_thread_allocations()
        let frees = heap_probe_thread_frees()
        body()
        return HeapUse(allocations: heap_probe_thread_allocations() - allocations, frees: heap_probe_thread_frees() - frees)
    }

    /// Nothing kept in any build; nothing allocated at all when optimised.
    static func expectNoHeapUse(_ use: HeapUse, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(use.kept == 0, "\(what) kept \(use.kept) heap blocks", sourceLocation: sourceLocation)
        #if !DEBUG
        #expect(use.allocations == 0, "\(what) allocated \(use.allocations) times", sourceLocation: sourceLocation)
        #endif
    }

    @Test("the probe counts this thread's allocations")
    func probeSeesAllocations() {
        final class Box { var value = 0 }
        var boxes: [Box] = []
        boxes.reserveCapacity(Self.decodesPerTrial)
        let use = Self.heapUse {
            for _ in 0..<Self.decodesPerTrial { boxes.append(Box()) }
        }
        #expect(use.allocations >= UInt64(Self.decodesPerTrial))
        #expect(use.kept >= Int64(Self.decodesPerTrial))
        #expect(boxes.count == Self.decodesPerTrial)
    }

    @Test("allocations on another thread do not count on this one")
    func otherThreadsDoNotCount() {
        let bytes: [UInt8] = [0x1B, 0x14, 0x00] + (0..<20).map { UInt8($0) }
        _ = try? ATTPDU(parsing: bytes)
        let noise = AllocatingThread()
        noise.start()
        var decoded: [ATTPDU] = []
        decoded.reserveCapacity(Self.decodesPerTrial)
        // The other thread allocates throughout: it has started, and stops only after.
        let use = Self.heapUse {
            for _ in 0..<Self.decodesPerTrial {
                if let pdu = try? ATTPDU(parsing: bytes) { decoded.append(pdu) }
            }
        }
        let theirs = noise.stop()
        #expect(theirs > 0, "the other thread allocated nothing: the test proves nothing")
        Self.expectNoHeapUse(use, "10 000 decodes while another thread made \(theirs) allocations")
        #expect(decoded.count == Self.decodesPerTrial)
    }

    @Test("10 000 decodes of a Handle Value Notification keep no heap memory")
    func decodingANotification() {
        let bytes: [UInt8] = [0x1B, 0x14, 0x00] + (0..<20).map { UInt8($0) }
        var decoded: [ATTPDU] = []
        decoded.reserveCapacity(Self.decodesPerTrial)
        _ = try? ATTPDU(parsing: bytes)   // first use: the runtime may set up metadata
        var failures = 0
        let use = Self.heapUse {
            for _ in 0..<Self.decodesPerTrial {
                if let pdu = try? ATTPDU(parsing: bytes) { decoded.append(pdu) } else { failures += 1 }
            }
        }
        Self.expectNoHeapUse(use, "10 000 decodes")
        #expect(failures == 0)
        #expect(decoded.count == Self.decodesPerTrial)
        #expect(decoded.last?.encoded() == bytes)
    }

    @Test("decoding list PDUs and walking their entries keeps no heap memory")
    func decodingAndWalkingLists() {
        // Read By Type Response of three characteristic declarations, and a Multiple
        // Handle Value Notification of two values.
        let readByType: [UInt8] = [0x09, 0x07, 0x02, 0x00, 0x02, 0x03, 0x00, 0x00, 0x2A,
                                   0x04, 0x00, 0x02, 0x05, 0x00, 0x01, 0x2A,
                                   0x06, 0x00, 0x20, 0x07, 0x00, 0x05, 0x2A]
        let multiple: [UInt8] = [0x23, 0x14, 0x00, 0x02, 0x00, 0x00, 0x48, 0x2F, 0x00, 0x03, 0x00, 0x01, 0x02, 0x03]
        var decoded: [ATTPDU] = []
        decoded.reserveCapacity(2 * Self.decodesPerTrial + 2)
        var handleSum = 0
        func decodeAndWalk() {
            if let pdu = try? ATTPDU(parsing: readByType), case let .readByTypeResponse(r) = pdu {
                for entry in r.attributeDataList { handleSum &+= Int(entry.handle) &+ entry.value.count }
                decoded.append(pdu)
            }
            if let pdu = try? ATTPDU(parsing: multiple), case let .multipleHandleValueNotification(n) = pdu {
                for tuple in n.handleLengthValueTupleList { handleSum &+= Int(tuple.handle ?? 0) &+ tuple.value.count }
                decoded.append(pdu)
            }
        }
        decodeAndWalk()
        let use = Self.heapUse {
            for _ in 0..<Self.decodesPerTrial { decodeAndWalk() }
        }
        Self.expectNoHeapUse(use, "10 000 decodes and walks")
        #expect(decoded.count == 2 * Self.decodesPerTrial + 2)
        #expect(handleSum != 0)
    }

    @Test("encoding into a caller's buffer keeps no heap memory")
    func encodingIntoABuffer() throws {
        let bytes: [UInt8] = [0x1B, 0x14, 0x00] + (0..<20).map { UInt8($0) }
        let pdu = try ATTPDU(parsing: bytes)
        var buffer = [UInt8](repeating: 0, count: 64)
        var total = 0
        let use = buffer.withUnsafeMutableBytes { raw in
            Self.heapUse {
                for _ in 0..<Self.decodesPerTrial { total &+= pdu.encode(into: raw) ?? 0 }
            }
        }
        Self.expectNoHeapUse(use, "10 000 encodes")
        #expect(total == bytes.count * Self.decodesPerTrial)
        #expect(Array(buffer.prefix(bytes.count)) == bytes)
    }
}

/// A POSIX thread that allocates and frees until told to stop: the disturbance a
/// process-wide allocation count would have picked up.
private final class AllocatingThread: Sendable {
    let started = Atomic<Bool>(false)
    let running = Atomic<Bool>(true)
    let finished = Atomic<Bool>(false)
    let allocations = Atomic<UInt64>(0)

    func start() {
        var thread = pthread_t()
        let context = Unmanaged.passRetained(self).toOpaque()
        let status = pthread_create(&thread, nil, { context in
            let this = Unmanaged<AllocatingThread>.fromOpaque(context!).takeRetainedValue()
            let before = heap_probe_thread_allocations()
            var kept: [[UInt8]] = []
            while this.running.load(ordering: .acquiring) {
                kept.append([UInt8](repeating: UInt8(truncatingIfNeeded: kept.count), count: 64))
                if kept.count == 64 { kept.removeAll() }
                this.started.store(true, ordering: .releasing)
            }
            this.allocations.store(heap_probe_thread_allocations() - before, ordering: .relaxed)
            this.finished.store(true, ordering: .releasing)
            return nil
        }, context)
        precondition(status == 0, "pthread_create failed: \(status)")
        pthread_detach(thread)
        while !started.load(ordering: .acquiring) { sched_yield() }
    }

    /// Stops the thread and returns how many allocations it made.
    func stop() -> UInt64 {
        running.store(false, ordering: .releasing)
        while !finished.load(ordering: .acquiring) { sched_yield() }
        return allocations.load(ordering: .relaxed)
    }
}
