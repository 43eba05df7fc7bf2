/// Fixed-width little-endian reads from a byte slice.
///
/// Bluetooth puts every multi-octet field on the wire least significant octet first
/// (Core 5.4 Vol 3 Part F §3.3, Vol 4 Part E §5.2). Codecs validate a PDU's length once,
/// up front, and then read fields with these accessors; `offset` counts from the slice's
/// first byte, not from its `startIndex`. A read past the end is a programmer error that
/// the codec's length check has already excluded, and Swift's bounds check traps on it.
extension ArraySlice<UInt8> {
    /// The byte `offset` bytes from the start of the slice.
    @inlinable
    public func byte(at offset: Int) -> UInt8 {
        self[startIndex &+ offset]
    }

    /// The 16-bit field `offset` bytes from the start of the slice.
    @inlinable
    public func littleEndianUInt16(at offset: Int) -> UInt16 {
        let i = startIndex &+ offset
        return UInt16(self[i]) | UInt16(self[i &+ 1]) &<< 8
    }

    /// The 24-bit field `offset` bytes from the start of the slice, in the low bits of
    /// the result.
    @inlinable
    public func littleEndianUInt24(at offset: Int) -> UInt32 {
        let i = startIndex &+ offset
        return UInt32(self[i]) | UInt32(self[i &+ 1]) &<< 8 | UInt32(self[i &+ 2]) &<< 16
    }

    /// The 32-bit field `offset` bytes from the start of the slice.
    @inlinable
    public func littleEndianUInt32(at offset: Int) -> UInt32 {
        UInt32(littleEndianUInt16(at: offset)) | UInt32(littleEndianUInt16(at: offset &+ 2)) &<< 16
    }

    /// The 64-bit field `offset` bytes from the start of the slice.
    @inlinable
    public func littleEndianUInt64(at offset: Int) -> UInt64 {
        UInt64(littleEndianUInt32(at: offset)) | UInt64(littleEndianUInt32(at: offset &+ 4)) &<< 32
    }

    /// The 128-bit field (a UUID, a key) `offset` bytes from the start of the slice.
    @inlinable
    public func littleEndianUInt128(at offset: Int) -> UInt128 {
        UInt128(littleEndianUInt64(at: offset)) | UInt128(littleEndianUInt64(at: offset &+ 8)) &<< 64
    }

    /// The `count` bytes starting `offset` bytes from the start: a view, not a copy.
    @inlinable
    public func bytes(at offset: Int, count: Int) -> ArraySlice<UInt8> {
        let i = startIndex &+ offset
        return self[i..<(i &+ count)]
    }

    /// Everything from `offset` bytes past the start to the end: a view, not a copy.
    @inlinable
    public func bytes(from offset: Int) -> ArraySlice<UInt8> {
        self[(startIndex &+ offset)...]
    }
}

/// The same reads, addressed by a named field: a codec names each field once by the
/// octets it covers (`handle = 1..<3`, `value = 3...`, as smoltcp's `wire` modules do),
/// and a parser reads `pdu.littleEndianUInt16(at: Field.handle)` instead of counting bytes.
/// The range says both where a field starts and how wide it is.
///
/// The codecs declare their fields as `@inlinable static var handle: Range<Int> { 1..<3 }`,
/// not `static let`: a stored constant of another module is a global that code inlined
/// into the caller must load at run time, and a length loaded from memory cannot prove
/// the reads after it in bounds; a computed property inlines as the constant itself.
extension ArraySlice<UInt8> {
    /// A 16-bit field named by the octets it covers.
    @inlinable
    public func littleEndianUInt16(at field: Range<Int>) -> UInt16 {
        assert(field.count == 2, "a 16-bit field covers two octets")
        return littleEndianUInt16(at: field.lowerBound)
    }

    /// A 32-bit field named by the octets it covers.
    @inlinable
    public func littleEndianUInt32(at field: Range<Int>) -> UInt32 {
        assert(field.count == 4, "a 32-bit field covers four octets")
        return littleEndianUInt32(at: field.lowerBound)
    }

    /// A 128-bit field named by the octets it covers.
    @inlinable
    public func littleEndianUInt128(at field: Range<Int>) -> UInt128 {
        assert(field.count == 16, "a 128-bit field covers sixteen octets")
        return littleEndianUInt128(at: field.lowerBound)
    }

    /// The field's bytes: a view, not a copy.
    @inlinable
    public func bytes(at field: Range<Int>) -> ArraySlice<UInt8> {
        bytes(at: field.lowerBound, count: field.count)
    }

    /// A field that runs to the end of the slice (a value, a list): a view, not a copy.
    @inlinable
    public func bytes(at field: PartialRangeFrom<Int>) -> ArraySlice<UInt8> {
        bytes(from: field.lowerBound)
    }
}

/// The same reads from borrowed bytes: a `Span` of the caller's buffer, which a decoder
/// reads in place without retaining anything (a slice holds its array's storage, so
/// every copy of one costs a retain and a release). `offset` counts from the span's
/// first byte. As with a slice, a read past the end traps: a codec's length check has
/// already excluded it, and the optimiser drops the bounds checks that check proves.
extension Span<UInt8> {
    /// The byte `offset` bytes from the start.
    @inlinable
    public func byte(at offset: Int) -> UInt8 {
        self[offset]
    }

    /// The 16-bit field `offset` bytes from the start.
    @inlinable
    public func littleEndianUInt16(at offset: Int) -> UInt16 {
        UInt16(self[offset]) | UInt16(self[offset &+ 1]) &<< 8
    }

    /// The 32-bit field `offset` bytes from the start.
    @inlinable
    public func littleEndianUInt32(at offset: Int) -> UInt32 {
        UInt32(littleEndianUInt16(at: offset)) | UInt32(littleEndianUInt16(at: offset &+ 2)) &<< 16
    }

    /// The 64-bit field `offset` bytes from the start.
    @inlinable
    public func littleEndianUInt64(at offset: Int) -> UInt64 {
        UInt64(littleEndianUInt32(at: offset)) | UInt64(littleEndianUInt32(at: offset &+ 4)) &<< 32
    }

    /// The 128-bit field (a UUID, a key) `offset` bytes from the start.
    @inlinable
    public func littleEndianUInt128(at offset: Int) -> UInt128 {
        UInt128(littleEndianUInt64(at: offset)) | UInt128(littleEndianUInt64(at: offset &+ 8)) &<< 64
    }

    /// A 16-bit field named by the octets it covers.
    @inlinable
    public func littleEndianUInt16(at field: Range<Int>) -> UInt16 {
        assert(field.count == 2, "a 16-bit field covers two octets")
        return littleEndianUInt16(at: field.lowerBound)
    }

    /// A 32-bit field named by the octets it covers.
    @inlinable
    public func littleEndianUInt32(at field: Range<Int>) -> UInt32 {
        assert(field.count == 4, "a 32-bit field covers four octets")
        return littleEndianUInt32(at: field.lowerBound)
    }

    /// A 128-bit field named by the octets it covers.
    @inlinable
    public func littleEndianUInt128(at field: Range<Int>) -> UInt128 {
        assert(field.count == 16, "a 128-bit field covers sixteen octets")
        return littleEndianUInt128(at: field.lowerBound)
    }

    /// Where a field that runs to the end of the span (a value, a list) lies: the range
    /// a borrowed decode keeps instead of a view, read back with `extracting(_:)`.
    @inlinable
    public func range(of field: PartialRangeFrom<Int>) -> Range<Int> {
        field.lowerBound..<count
    }
}
