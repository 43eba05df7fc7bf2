import SwiftATTCore

/// Length-prefixed tuples inside a PDU, validated once and then read in place.
///
/// Read Multiple Variable Response carries (length, value) tuples and Multiple Handle
/// Value Notification (handle, length, value) tuples. Entries have different lengths, so
/// the parser walks the list once to check every length against the PDU's end; iteration
/// then trusts those checks and reads views into the PDU.
public struct ATTTupleList: Sequence, Sendable, Hashable {
    /// One tuple: its handle (only in Multiple Handle Value Notification), the length it
    /// declares and the value bytes present.
    public struct Tuple: Sendable, Hashable {
        /// The attribute handle: in Multiple Handle Value Notification only.
        public let handle: UInt16?
        /// Never less than `value.count`: only a truncated tuple declares more than it holds.
        public let declaredLength: Int
        /// The value bytes present: a view into the PDU.
        public let value: ArraySlice<UInt8>

        /// A tuple; `declaredLength` (for a truncated last tuple) is raised to
        /// `value.count` if smaller, so every tuple has a valid wire form.
        public init(handle: UInt16? = nil, value: ArraySlice<UInt8>, declaredLength: Int? = nil) {
            self.handle = handle
            self.value = value
            self.declaredLength = Swift.max(declaredLength ?? value.count, value.count)
        }

        /// The last tuple of a Read Multiple Variable Response may be cut at ATT_MTU−1
        /// (Core 5.4 Vol 3 Part F §3.4.4.12): fewer value bytes than declared.
        public var isTruncated: Bool { value.count < declaredLength }
    }

    /// The tuples' bytes.
    public let bytes: ArraySlice<UInt8>
    /// Whether each tuple starts with a handle.
    public let hasHandles: Bool

    /// Where a tuple's fields lie, from its first octet: the handle (only in Multiple
    /// Handle Value Notification), the Length, then the value.
    @usableFromInline
    enum Field {
        @inlinable static var handle: Range<Int> { 0..<2 }
        @inlinable static func length(hasHandles: Bool) -> Range<Int> { hasHandles ? 2..<4 : 0..<2 }
    }

    @usableFromInline
    init(unchecked bytes: ArraySlice<UInt8>, hasHandles: Bool) {
        self.bytes = bytes
        self.hasHandles = hasHandles
    }

    /// The wire form of `tuples` (handles written only when `hasHandles`).
    public init(_ tuples: [Tuple], hasHandles: Bool) {
        var out: [UInt8] = []
        for t in tuples {
            if hasHandles { out.append(littleEndian: t.handle ?? 0) }
            out.append(littleEndian: UInt16(truncatingIfNeeded: t.declaredLength))
            out.append(contentsOf: t.value)
        }
        self.init(unchecked: out[...], hasHandles: hasHandles)
    }

    /// Checks every tuple's length against the end of the list. `allowTruncatedLast`
    /// lets the last value be shorter than declared.
    @inlinable
    static func parse(
        _ bytes: ArraySlice<UInt8>, of opcode: ATTOpcode, hasHandles: Bool,
        minimumCount: Int, allowTruncatedLast: Bool, pduOffset: Int
    ) throws(ATTDecodingError) -> ATTTupleList {
        let lengthField = Field.length(hasHandles: hasHandles)
        let header = lengthField.upperBound
        var offset = 0
        var count = 0
        while offset < bytes.count {
            let remaining = bytes.count &- offset
            guard remaining >= header else {
                throw .tupleOverrun(opcode, offset: pduOffset &+ offset, need: header, have: remaining)
            }
            let length = Int(bytes.littleEndianUInt16(at: offset &+ lengthField.lowerBound))
            guard length <= ATTLimits.maximumAttributeValueLength else {
                throw .valueTooLong(opcode, length: length)
            }
            let available = remaining &- header
            if length > available {
                guard allowTruncatedLast else {
                    throw .tupleOverrun(opcode, offset: pduOffset &+ offset, need: header &+ length, have: remaining)
                }
                offset = bytes.count
            } else {
                offset &+= header &+ length
            }
            count &+= 1
        }
        guard count >= minimumCount else { throw .tooFewEntries(opcode, count: count, minimum: minimumCount) }
        return ATTTupleList(unchecked: bytes, hasHandles: hasHandles)
    }

    public struct Iterator: IteratorProtocol {
        @usableFromInline let list: ATTTupleList
        @usableFromInline var offset = 0

        @inlinable
        init(list: ATTTupleList) { self.list = list }

        @inlinable
        public mutating func next() -> Tuple? {
            let bytes = list.bytes
            let lengthField = Field.length(hasHandles: list.hasHandles)
            let header = lengthField.upperBound
            // Parsed lists are validated; a list built by hand is walked defensively.
            guard bytes.count &- offset >= header else { return nil }
            let handle: UInt16? = list.hasHandles ? bytes.littleEndianUInt16(at: offset &+ Field.handle.lowerBound) : nil
            let length = Int(bytes.littleEndianUInt16(at: offset &+ lengthField.lowerBound))
            let present = Swift.min(length, bytes.count &- offset &- header)
            let value = bytes.bytes(at: offset &+ header, count: present)
            offset &+= header &+ present
            return Tuple(handle: handle, value: value, declaredLength: length)
        }
    }

    @inlinable
    public func makeIterator() -> Iterator { Iterator(list: self) }
}

extension ATTTupleList {
    /// A tuple list decoded from borrowed bytes: the range of the PDU its tuples cover.
    /// Walk it with a `Cursor`, handing it the same bytes.
    public struct Borrowed: Sendable, Hashable {
        /// The tuples' octets in the PDU.
        public let bytes: Range<Int>
        /// Whether each tuple starts with a handle.
        public let hasHandles: Bool

        @inlinable
        init(unchecked bytes: Range<Int>, hasHandles: Bool) {
            self.bytes = bytes
            self.hasHandles = hasHandles
        }

        /// One tuple: its handle (only in Multiple Handle Value Notification), the length
        /// it declares and where its value bytes lie in the PDU.
        public struct Tuple: Sendable, Hashable {
            /// The attribute handle: in Multiple Handle Value Notification only.
            public let handle: UInt16?
            /// Never less than `value.count`: only a truncated tuple declares more than it holds.
            public let declaredLength: Int
            /// Where the value bytes lie in the PDU.
            public let value: Range<Int>

            @inlinable
            init(handle: UInt16?, declaredLength: Int, value: Range<Int>) {
                self.handle = handle
                self.declaredLength = declaredLength
                self.value = value
            }

            /// Fewer value bytes than declared (a truncated last tuple).
            @inlinable public var isTruncated: Bool { value.count < declaredLength }
        }

        /// Walks the tuples in order: `next(in:)` reads each from the PDU's bytes.
        public struct Cursor: Sendable {
            @usableFromInline let list: Borrowed
            @usableFromInline var offset: Int

            @inlinable
            init(list: Borrowed) {
                self.list = list
                offset = list.bytes.lowerBound
            }

            /// The next tuple, read from `pdu` (the bytes the list was decoded from), or
            /// nil after the last.
            @inlinable
            public mutating func next(in pdu: Span<UInt8>) -> Tuple? {
                let lengthField = Field.length(hasHandles: list.hasHandles)
                let header = lengthField.upperBound
                let end = list.bytes.upperBound
                // A parsed list is validated; a cursor handed other bytes stops rather than traps.
                guard end <= pdu.count, end &- offset >= header else { return nil }
                let handle: UInt16? = list.hasHandles ? pdu.littleEndianUInt16(at: offset &+ Field.handle.lowerBound) : nil
                let length = Int(pdu.littleEndianUInt16(at: offset &+ lengthField.lowerBound))
                let start = offset &+ header
                let present = Swift.min(length, end &- start)
                offset = start &+ present
                return Tuple(handle: handle, declaredLength: length, value: start..<offset)
            }
        }

        /// A cursor at the first tuple.
        @inlinable public var cursor: Cursor { Cursor(list: self) }

        /// The same checks as `ATTTupleList.parse`, on the tuples from `field.lowerBound`
        /// to the end of `pdu`; offsets in errors count from the PDU's first byte.
        @inlinable
        static func parse(
            _ pdu: Span<UInt8>, at field: PartialRangeFrom<Int>, of opcode: ATTOpcode, hasHandles: Bool,
            minimumCount: Int, allowTruncatedLast: Bool
        ) throws(ATTDecodingError) -> Borrowed {
            let lengthField = Field.length(hasHandles: hasHandles)
            let header = lengthField.upperBound
            let end = pdu.count
            var offset = field.lowerBound
            var count = 0
            while offset < end {
                let remaining = end &- offset
                guard remaining >= header else {
                    throw .tupleOverrun(opcode, offset: offset, need: header, have: remaining)
                }
                let length = Int(pdu.littleEndianUInt16(at: offset &+ lengthField.lowerBound))
                guard length <= ATTLimits.maximumAttributeValueLength else {
                    throw .valueTooLong(opcode, length: length)
                }
                let available = remaining &- header
                if length > available {
                    guard allowTruncatedLast else {
                        throw .tupleOverrun(opcode, offset: offset, need: header &+ length, have: remaining)
                    }
                    offset = end
                } else {
                    offset &+= header &+ length
                }
                count &+= 1
            }
            guard count >= minimumCount else { throw .tooFewEntries(opcode, count: count, minimum: minimumCount) }
            return Borrowed(unchecked: field.lowerBound..<end, hasHandles: hasHandles)
        }

        /// The list as `ATTTupleList`, viewing `pdu`: the bytes it was decoded from.
        @inlinable
        public func owned(in pdu: ArraySlice<UInt8>) -> ATTTupleList {
            ATTTupleList(unchecked: pdu.bytes(at: bytes), hasHandles: hasHandles)
        }
    }
}
