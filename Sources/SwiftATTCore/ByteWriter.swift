/// Writes little-endian fields into memory the caller owns.
///
/// Encoders compute their exact length first (`encodedLength`) and then write into a
/// buffer of that size, so emitting a PDU never grows or reallocates anything. Writing
/// past the end is a programmer error (an `encodedLength` that disagrees with `encode`),
/// which the round-trip tests rule out; it traps rather than corrupt memory.
public struct ByteWriter {
    @usableFromInline let base: UnsafeMutableRawPointer?
    @usableFromInline let capacity: Int
    @usableFromInline var written: Int
    /// How many bytes have been written so far.
    @inlinable public var count: Int { written }

    /// A writer over `buffer`, starting at its first byte.
    @inlinable
    public init(_ buffer: UnsafeMutableRawBufferPointer) {
        base = buffer.baseAddress
        capacity = buffer.count
        written = 0
    }

    @inlinable
    mutating func reserve(_ n: Int) -> UnsafeMutableRawPointer {
        precondition(n <= capacity &- written, "ByteWriter overflow: encodedLength disagrees with encode")
        defer { written &+= n }
        return base.unsafelyUnwrapped + written
    }

    /// Writes one octet.
    @inlinable
    public mutating func write(_ value: UInt8) {
        reserve(1).storeBytes(of: value, as: UInt8.self)
    }

    /// Writes a 16-bit field, least significant octet first.
    @inlinable
    public mutating func write(_ value: UInt16) {
        reserve(2).storeBytes(of: value.littleEndian, as: UInt16.self)
    }

    /// Writes the low 24 bits of `value`.
    @inlinable
    public mutating func writeUInt24(_ value: UInt32) {
        let p = reserve(3)
        p.storeBytes(of: UInt8(truncatingIfNeeded: value), as: UInt8.self)
        (p + 1).storeBytes(of: UInt8(truncatingIfNeeded: value &>> 8), as: UInt8.self)
        (p + 2).storeBytes(of: UInt8(truncatingIfNeeded: value &>> 16), as: UInt8.self)
    }

    /// Writes a 32-bit field, least significant octet first.
    @inlinable
    public mutating func write(_ value: UInt32) {
        reserve(4).storeBytes(of: value.littleEndian, as: UInt32.self)
    }

    /// Writes a 64-bit field, least significant octet first.
    @inlinable
    public mutating func write(_ value: UInt64) {
        reserve(8).storeBytes(of: value.littleEndian, as: UInt64.self)
    }

    /// Writes a 128-bit field (a UUID, a key), least significant octet first.
    @inlinable
    public mutating func write(_ value: UInt128) {
        write(UInt64(truncatingIfNeeded: value))
        write(UInt64(truncatingIfNeeded: value &>> 64))
    }

    /// Copies `bytes` verbatim.
    @inlinable
    public mutating func write(_ bytes: ArraySlice<UInt8>) {
        let n = bytes.count
        guard n > 0 else { return }
        let p = reserve(n)
        bytes.withUnsafeBytes { p.copyMemory(from: $0.baseAddress.unsafelyUnwrapped, byteCount: n) }
    }

    /// Copies `bytes` verbatim.
    @inlinable
    public mutating func write(_ bytes: [UInt8]) {
        write(bytes[...])
    }
}

/// A value with a fixed wire form whose length is known before it is written.
public protocol ByteEncodable {
    /// The exact number of bytes `encode(into:)` writes.
    var encodedLength: Int { get }
    /// Writes the wire form; writes exactly `encodedLength` bytes.
    func encode(into writer: inout ByteWriter)
}

extension ByteEncodable {
    /// The wire form in a new array of exactly `encodedLength` bytes.
    ///
    /// An empty wire form returns `[]` without `init(unsafeUninitializedCapacity:)`: with
    /// capacity 0 that initializer stores the count into the standard library's one
    /// shared empty-array storage, a write that races with every other thread doing the
    /// same (ThreadSanitizer reports it from concurrent tests).
    @inlinable
    public func encoded() -> [UInt8] {
        let n = encodedLength
        guard n > 0 else { return [] }
        return [UInt8](unsafeUninitializedCapacity: n) { buffer, initialized in
            var writer = ByteWriter(UnsafeMutableRawBufferPointer(buffer))
            encode(into: &writer)
            initialized = writer.count
        }
    }

    /// Appends the wire form to `array`, which may carry reserved capacity from earlier use.
    @inlinable
    public func encode(appendingTo array: inout [UInt8]) {
        let start = array.count
        let n = encodedLength
        array.append(contentsOf: repeatElement(0, count: n))
        array.withUnsafeMutableBytes { all in
            var writer = ByteWriter(UnsafeMutableRawBufferPointer(rebasing: all[start...]))
            encode(into: &writer)
        }
    }

    /// Writes the wire form at the start of `buffer` and returns the number of bytes
    /// written, or `nil` (writing nothing) when `buffer` is too small.
    @inlinable
    public func encode(into buffer: UnsafeMutableRawBufferPointer) -> Int? {
        guard encodedLength <= buffer.count else { return nil }
        var writer = ByteWriter(buffer)
        encode(into: &writer)
        return writer.count
    }
}
