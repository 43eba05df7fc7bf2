import SwiftATTCore

/// One fixed-length entry of an ATT response list: its fields, named by the octets they
/// cover, read from exactly its bytes and written back the same way.
public protocol ATTListEntry: ByteEncodable, Sendable, Hashable {
    /// Decodes an entry from its bytes, whose length the list has already validated.
    init(entryBytes: ArraySlice<UInt8>)
}

/// A list of equal-length entries inside a PDU, read in place.
///
/// Read By Type, Read By Group Type, Find Information and Find By Type Value responses
/// carry lists whose entry length is fixed per PDU. The parser checks once that the bytes
/// are a whole number of entries; after that, entries are decoded on access, as views
/// into the PDU, so walking a list allocates nothing.
public struct ATTEntryList<Entry: ATTListEntry>: RandomAccessCollection, Sendable, Hashable {
    /// The list's bytes, a whole number of entries.
    public let bytes: ArraySlice<UInt8>
    /// Octets per entry.
    public let entryLength: Int

    /// `bytes` must hold a whole, non-zero multiple of `entryLength`; parsers check this
    /// (with a typed error) before constructing a list.
    @inlinable
    init(unchecked bytes: ArraySlice<UInt8>, entryLength: Int) {
        self.bytes = bytes
        self.entryLength = entryLength
    }

    @inlinable public var startIndex: Int { 0 }
    @inlinable public var endIndex: Int { bytes.count / entryLength }

    @inlinable
    public subscript(position: Int) -> Entry {
        Entry(entryBytes: bytes.bytes(at: position &* entryLength, count: entryLength))
    }
}

/// The handles of a Read Multiple or Read Multiple Variable request, read in place.
public struct ATTHandleList: RandomAccessCollection, Sendable, Hashable {
    /// `handleLength` bytes per handle.
    public let bytes: ArraySlice<UInt8>

    /// Octets per handle.
    @inlinable static var handleLength: Int { 2 }
    @inlinable
    init(unchecked bytes: ArraySlice<UInt8>) { self.bytes = bytes }

    /// The wire form of `handles`.
    public init(_ handles: some Sequence<UInt16>) {
        var out: [UInt8] = []
        for h in handles { out.append(littleEndian: h) }
        bytes = out[...]
    }

    @inlinable public var startIndex: Int { 0 }
    @inlinable public var endIndex: Int { bytes.count / Self.handleLength }

    @inlinable
    public subscript(position: Int) -> UInt16 { bytes.littleEndianUInt16(at: position &* Self.handleLength) }

    /// Checks a request's handle list: a whole number of handles, at least two.
    @inlinable
    static func parse(_ bytes: ArraySlice<UInt8>, of opcode: ATTOpcode) throws(ATTDecodingError) -> ATTHandleList {
        try check(count: bytes.count, of: opcode)
        return ATTHandleList(unchecked: bytes)
    }

    /// Checks the length of a request's handle list: a whole number of handles, at least
    /// two.
    @inlinable @inline(__always)
    static func check(count byteCount: Int, of opcode: ATTOpcode) throws(ATTDecodingError) {
        guard byteCount % handleLength == 0 else {
            throw .lengthNotMultiple(opcode, dataLength: byteCount, entryLength: handleLength)
        }
        let count = byteCount / handleLength
        guard count >= 2 else { throw .tooFewEntries(opcode, count: count, minimum: 2) }
    }
}

extension ATTEntryList {
    /// Checks a response's list: a whole, non-zero number of `entryLength`-byte entries.
    @inlinable
    static func parse(_ bytes: ArraySlice<UInt8>, entryLength: Int, of opcode: ATTOpcode) throws(ATTDecodingError) -> Self {
        guard !bytes.isEmpty else { throw .tooFewEntries(opcode, count: 0, minimum: 1) }
        guard bytes.count % entryLength == 0 else {
            throw .lengthNotMultiple(opcode, dataLength: bytes.count, entryLength: entryLength)
        }
        return Self(unchecked: bytes, entryLength: entryLength)
    }

    /// A list's wire form from entries that must all encode to the same length, the
    /// first one's.
    static func build(_ entries: some Sequence<Entry>, of opcode: ATTOpcode) throws(ATTDecodingError) -> Self {
        var out: [UInt8] = []
        var length: Int? = nil
        for e in entries {
            let n = e.encodedLength
            if let length, length != n {
                throw .lengthNotMultiple(opcode, dataLength: out.count + n, entryLength: length)
            }
            length = n
            e.encode(appendingTo: &out)
        }
        guard let length else { throw .tooFewEntries(opcode, count: 0, minimum: 1) }
        return Self(unchecked: out[...], entryLength: length)
    }
}
