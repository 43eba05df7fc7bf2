import ATT
import HeapProbe
import Testing

/// Decoding keeps views into the input, so it retains no heap memory: the bytes malloc
/// has handed out (glibc `mallinfo2`) are the same before and after 10 000 decodes whose
/// results are all kept alive.
///
/// `mallinfo2` counts every thread, and other tests run in parallel in this process,
/// so one measurement can be disturbed by their allocations. A trial that sees exactly
/// zero settles it; a decoder that allocated would show at least 16 bytes per decode
/// (160 000 per trial) in every trial. Trials are spaced out, for up to 30 seconds, to
/// find a quiet moment. What `mallinfo2` cannot see is an allocation freed within the
/// same decode; the benchmarks' per-thread allocation counter reports those.
@Suite("Zero allocation", .serialized, .enabled(if: heap_probe_is_available() != 0, "needs glibc 2.33+ mallinfo2, and no sanitizer"))
struct ZeroAllocationTests {
    static let decodesPerTrial = 10_000

    static func bytesInUse() -> Int { heap_probe_bytes_in_use() }

    /// Runs `trial` until it leaves the heap exactly as it found it, or the time is up;
    /// returns the smallest change seen. `reset` runs before each measurement, outside
    /// it, so what the previous trial kept is released before the first reading.
    static func smallestHeapChange(reset: () -> Void, _ trial: () -> Void) async -> Int {
        var smallest = Int.max
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(30)
        while clock.now < deadline {
            reset()
            let before = bytesInUse()
            trial()
            let after = bytesInUse()
            smallest = min(smallest, abs(after - before))
            if smallest == 0 { break }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return smallest
    }

    @Test("the probe sees retained allocations")
    func probeSeesAllocations() async {
        final class Box { var value = 0 }
        var boxes: [Box] = []
        boxes.reserveCapacity(Self.decodesPerTrial)
        // Every trial keeps 10 000 new objects: never a zero change.
        var grew = Int.max
        for _ in 0..<5 {
            boxes.removeAll(keepingCapacity: true)
            let before = Self.bytesInUse()
            for _ in 0..<Self.decodesPerTrial { boxes.append(Box()) }
            grew = min(grew, Self.bytesInUse() - before)
        }
        #expect(grew > 0)
        #expect(boxes.count == Self.decodesPerTrial)
    }

    @Test("10 000 decodes of a Handle Value Notification retain no heap memory")
    func decodingANotification() async {
        let bytes: [UInt8] = [0x1B, 0x14, 0x00] + (0..<20).map { UInt8($0) }
        var decoded: [ATTPDU] = []
        decoded.reserveCapacity(Self.decodesPerTrial)
        var failures = 0
        let change = await Self.smallestHeapChange(reset: { decoded.removeAll(keepingCapacity: true) }) {
            for _ in 0..<Self.decodesPerTrial {
                if let pdu = try? ATTPDU(parsing: bytes) { decoded.append(pdu) } else { failures += 1 }
            }
        }
        #expect(change == 0, "smallest heap change over 10 000 decodes: \(change) bytes")
        #expect(failures == 0)
        #expect(decoded.count == Self.decodesPerTrial)
        #expect(decoded.last?.encoded() == bytes)
    }

    @Test("decoding list PDUs and walking their entries retains no heap memory")
    func decodingAndWalkingLists() async {
        // Read By Type Response of three characteristic declarations, and a Multiple
        // Handle Value Notification of two values.
        let readByType: [UInt8] = [0x09, 0x07, 0x02, 0x00, 0x02, 0x03, 0x00, 0x00, 0x2A,
                                   0x04, 0x00, 0x02, 0x05, 0x00, 0x01, 0x2A,
                                   0x06, 0x00, 0x20, 0x07, 0x00, 0x05, 0x2A]
        let multiple: [UInt8] = [0x23, 0x14, 0x00, 0x02, 0x00, 0x00, 0x48, 0x2F, 0x00, 0x03, 0x00, 0x01, 0x02, 0x03]
        var decoded: [ATTPDU] = []
        decoded.reserveCapacity(2 * Self.decodesPerTrial)
        var handleSum = 0
        let change = await Self.smallestHeapChange(reset: { decoded.removeAll(keepingCapacity: true) }) {
            for _ in 0..<Self.decodesPerTrial {
                if let pdu = try? ATTPDU(parsing: readByType), case let .readByTypeResponse(r) = pdu {
                    for entry in r.attributeDataList { handleSum &+= Int(entry.handle) &+ entry.value.count }
                    decoded.append(pdu)
                }
                if let pdu = try? ATTPDU(parsing: multiple), case let .multipleHandleValueNotification(n) = pdu {
                    for tuple in n.handleLengthValueTupleList { handleSum &+= Int(tuple.handle ?? 0) &+ tuple.value.count }
                    decoded.append(pdu)
                }
            }
        }
        #expect(change == 0, "smallest heap change: \(change) bytes")
        #expect(decoded.count == 2 * Self.decodesPerTrial)
        #expect(handleSum != 0)
    }

    @Test("encoding into a caller's buffer retains no heap memory")
    func encodingIntoABuffer() async throws {
        let bytes: [UInt8] = [0x1B, 0x14, 0x00] + (0..<20).map { UInt8($0) }
        let pdu = try ATTPDU(parsing: bytes)
        var buffer = [UInt8](repeating: 0, count: 64)
        var total = 0
        let change = await Self.smallestHeapChange(reset: {}) {
            buffer.withUnsafeMutableBytes { raw in
                for _ in 0..<Self.decodesPerTrial { total &+= pdu.encode(into: raw) ?? 0 }
            }
        }
        #expect(change == 0, "smallest heap change: \(change) bytes")
        #expect(total % bytes.count == 0 && total > 0)
        #expect(Array(buffer.prefix(bytes.count)) == bytes)
    }
}
