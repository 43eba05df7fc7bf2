import SwiftATTCore

/// One K-frame a credit-based channel hands out to send: an LE information frame of
/// Core 5.4 Vol 3 Part A §3.4.3. The first K-frame of an SDU opens with the 2-octet
/// L2CAP SDU Length; every K-frame costs the sender one credit (§10.1).
///
/// The segment is a view into the SDU the application queued: nothing is copied until
/// the frame is written, and `L2CAPFragmenter.encodePackets(channel:payload:…)` writes it
/// (as the basic frame's payload) straight into its ACL packet. `encode(into:)` writes
/// the information payload — SDU Length, when present, and segment — which the MPS
/// bounds; `encodeBasicFrame(into:)` adds the basic header (Length, Channel ID).
public struct KFrame: Sendable, Hashable, ByteEncodable {
    /// Where the fields sit: the basic header, then the first K-frame's SDU Length.
    /// Computed rather than stored, so they inline as constants (LittleEndianReading.swift).
    public enum Field {
        /// The basic header's octet count (Length, Channel ID), §3.1.
        @inlinable public static var basicHeaderLength: Int { 4 }
        /// The L2CAP SDU Length field at the start of a first K-frame's payload.
        @inlinable public static var sduLength: Range<Int> { 0..<2 }
    }

    /// The destination: the peer's CID for this channel.
    public var channel: UInt16
    /// The whole SDU's length, in the first K-frame of an SDU only.
    public var sduLength: UInt16?
    /// This frame's part of the SDU: a view into the queued SDU.
    public var segment: ArraySlice<UInt8>
    /// The SDU's last K-frame: once it is sent, the whole SDU has left the channel.
    public var completesSDU: Bool

    /// A K-frame for `channel` carrying `segment`.
    public init(channel: UInt16, sduLength: UInt16?, segment: ArraySlice<UInt8>, completesSDU: Bool) {
        self.channel = channel
        self.sduLength = sduLength
        self.segment = segment
        self.completesSDU = completesSDU
    }

    /// The information payload's length: what the peer's MPS bounds.
    @inlinable public var encodedLength: Int { (sduLength == nil ? 0 : Field.sduLength.count) + segment.count }

    /// Writes the information payload (SDU Length when present, then the segment).
    @inlinable
    public func encode(into writer: inout ByteWriter) {
        if let sduLength { writer.write(sduLength) }
        writer.write(segment)
    }

    /// The whole basic frame's length: header and information payload.
    @inlinable public var basicFrameLength: Int { Field.basicHeaderLength + encodedLength }

    /// Writes the basic frame: Length, Channel ID, then the information payload.
    @inlinable
    public func encodeBasicFrame(into writer: inout ByteWriter) {
        writer.write(UInt16(truncatingIfNeeded: encodedLength))
        writer.write(channel)
        encode(into: &writer)
    }

    /// The basic frame in a new array (tests, logs); the send path writes it into its
    /// ACL packet instead.
    public func basicFrame() -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: basicFrameLength) { buffer, initialized in
            var writer = ByteWriter(UnsafeMutableRawBufferPointer(buffer))
            encodeBasicFrame(into: &writer)
            initialized = writer.count
        }
    }
}
