import SwiftATTCore

/// HCI_Number_Of_Completed_Packets: ACL buffer credits coming back, per connection.
/// Core 5.4 Vol 4 Part E §7.7.19.
///
/// On the hot path (one per ACL packet on Bumble: BENCH.md quirk 9), so the entries are a
/// view over the event's bytes, checked once against Num_Handles and never copied.
public struct NumberOfCompletedPackets: HCIEventParameters, Hashable {
    public static let code: UInt8 = 0x13

    /// One connection's packets completed since the last event.
    public struct Entry: Sendable, Hashable {
        /// Connection_Handle: the connection, as the controller numbers it.
        public var connectionHandle: UInt16
        /// Num_Completed_Packets: packets sent (or flushed) since the last event.
        public var numCompletedPackets: UInt16

        /// `numCompletedPackets` packets completed on `connectionHandle`.
        public init(connectionHandle: UInt16, numCompletedPackets: UInt16) {
            self.connectionHandle = connectionHandle
            self.numCompletedPackets = numCompletedPackets
        }
    }

    /// The handle/count pairs, interleaved on the wire.
    public struct Entries: RandomAccessCollection, Sendable, Hashable {
        /// Exactly 4 octets per entry.
        @usableFromInline let bytes: ArraySlice<UInt8>

        @usableFromInline init(bytes: ArraySlice<UInt8>) {
            self.bytes = bytes
        }

        public var startIndex: Int { 0 }
        public var endIndex: Int { bytes.count / 4 }

        public subscript(position: Int) -> Entry {
            Entry(connectionHandle: bytes.littleEndianUInt16(at: 4 * position),
                  numCompletedPackets: bytes.littleEndianUInt16(at: 4 * position + 2))
        }
    }

    /// The connections and their completed packets.
    public var entries: Entries

    /// At most 63 entries fit in one event; callers keep within that.
    ///
    /// Inlinable: generic over the sequence, it ran unspecialized from other modules, a
    /// protocol call per element (a controller crediting each batch of packets builds one).
    @inlinable
    public init(entries: some Sequence<Entry>) {
        var bytes: [UInt8] = []
        for e in entries {
            bytes.append(littleEndian: e.connectionHandle)
            bytes.append(littleEndian: e.numCompletedPackets)
        }
        self.entries = Entries(bytes: bytes[...])
    }

    public init(parameters p: borrowing ArraySlice<UInt8>) throws(HCIDecodingError) {
        try HCIWire.check(p, "Number Of Completed Packets", atLeast: 1)
        let count = Int(p.byte(at: 0))
        try HCIWire.check(p, "Number Of Completed Packets (Num_Handles \(count))", length: 1 + 4 * count)
        entries = Entries(bytes: p.bytes(from: 1))
    }

    public var parametersLength: Int { 1 + entries.bytes.count }

    public func encodeParameters(into writer: inout ByteWriter) {
        writer.write(UInt8(truncatingIfNeeded: entries.count))
        writer.write(entries.bytes)
    }
}
