/// A fuzzer's input read as a script: single bytes that choose what happens next, and
/// length-prefixed records that carry the bytes a peer or controller would send.
///
/// Every read succeeds or reports the end of the input, so a harness never traps on the
/// shape of what libFuzzer hands it; only `require` traps, and only when the code under
/// test broke one of its own promises. Compiled into every target by `run.sh`.
struct FuzzInput {
    private(set) var bytes: ArraySlice<UInt8>

    init(_ data: UnsafePointer<UInt8>?, _ count: Int) {
        guard let data, count > 0 else {
            bytes = []
            return
        }
        bytes = Array(UnsafeBufferPointer(start: data, count: count))[...]
    }

    var isEmpty: Bool { bytes.isEmpty }

    /// The next byte, or `nil` at the end.
    mutating func byte() -> UInt8? { bytes.popFirst() }

    /// A little-endian 16-bit value; `nil` when fewer than two bytes remain.
    mutating func uint16() -> UInt16? {
        guard bytes.count >= 2 else { return nil }
        let low = bytes.removeFirst()
        return UInt16(low) | UInt16(bytes.removeFirst()) << 8
    }

    /// A record: one length octet (0xFF: a 16-bit length follows), then that many bytes,
    /// or as many as remain. `nil` at the end. The bytes are copied into a fresh array so
    /// ASan sees every read past a record as an overflow.
    mutating func record() -> [UInt8]? {
        guard let first = byte() else { return nil }
        var length = Int(first)
        if first == 0xFF, let long = uint16() { length = Int(long) }
        let taken = bytes.prefix(length)
        bytes = bytes.dropFirst(length)
        return Array(taken)
    }

    /// Everything not read yet.
    mutating func rest() -> [UInt8] {
        defer { bytes = [] }
        return Array(bytes)
    }
}

/// Traps with `message` when the code under test broke a promise: libFuzzer records the
/// input as a crash. Never used for the input's own validity.
@inline(never)
func require(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError("fuzz invariant broken: \(message())") }
}

/// The same bytes at a non-zero `startIndex`, as they arrive inside a larger frame: a
/// decoder that indexes from 0 instead of `startIndex` reads the wrong bytes (or traps).
func offsetSlice(_ bytes: [UInt8]) -> ArraySlice<UInt8> {
    ([0xA5, 0x5A, 0xA5] + bytes)[3...]
}

/// Keeps a value alive so the optimiser cannot drop the reads that produced it.
@inline(never)
func blackHole<T>(_ value: T) {}
