import SwiftATTCore

/// HCI_LE_Set_Extended_Advertising_Enable: start or stop extended advertising sets.
/// Core 5.4 Vol 4 Part E §7.8.56.
///
/// Disabling with no sets disables every set. The per-set parameters are interleaved on
/// the wire: handle, duration, max events for set 0, then for set 1, …
public struct LESetExtendedAdvertisingEnable: HCICommand, Hashable {
    @inlinable public static var opcode: HCIOpcode { HCIOpcode(ogf: 0x08, ocf: 0x0039) }

    /// One set's entry.
    public struct AdvertisingSet: Sendable, Hashable {
        /// Advertising_Handle: which advertising set.
        public var advertisingHandle: UInt8
        /// Duration, in units of 10 ms; 0 advertises until disabled.
        public var duration: UInt16
        /// Max_Extended_Advertising_Events; 0 for no limit.
        public var maxExtendedAdvertisingEvents: UInt8

        /// A set to start or stop, for `duration` (10 ms units, 0: no limit) or that many events
        /// (0: no limit).
        public init(advertisingHandle: UInt8, duration: UInt16 = 0, maxExtendedAdvertisingEvents: UInt8 = 0) {
            self.advertisingHandle = advertisingHandle
            self.duration = duration
            self.maxExtendedAdvertisingEvents = maxExtendedAdvertisingEvents
        }

        /// `duration` in milliseconds; 0 means no limit.
        public var durationMilliseconds: Double { Double(duration) * 10 }
    }

    /// Enable: start (true) or stop.
    public var enable: Bool
    /// At most 63 sets (Num_Sets 0x01–0x3F; 0 only when disabling).
    public var sets: [AdvertisingSet]

    /// HCI_LE_Set_Extended_Advertising_Enable with these parameters.
    public init(enable: Bool, sets: [AdvertisingSet]) {
        self.enable = enable
        self.sets = sets
    }

    /// Sets beyond 63 (a programmer error) are not sent.
    var sentSetCount: Int { min(sets.count, 0x3F) }

    public var parametersLength: Int { 2 + 4 * sentSetCount }

    public func encodeParameters(into writer: inout ByteWriter) {
        writer.write(enable ? UInt8(1) : 0)
        writer.write(UInt8(sentSetCount))
        for set in sets.prefix(sentSetCount) {
            writer.write(set.advertisingHandle)
            writer.write(set.duration)
            writer.write(set.maxExtendedAdvertisingEvents)
        }
    }

    public init(parameters p: borrowing ArraySlice<UInt8>) throws(HCIDecodingError) {
        let what = "LE Set Extended Advertising Enable"
        try HCIWire.check(p, "\(what) parameters", atLeast: 2)
        let count = Int(p.byte(at: 1))
        try HCIWire.check(p, "\(what) parameters (Num_Sets \(count))", length: 2 + 4 * count)
        enable = try HCIField.decodeBool(p.byte(at: 0), "\(what) Enable")
        var sets: [AdvertisingSet] = []
        sets.reserveCapacity(count)
        for i in 0..<count {
            let o = 2 + 4 * i
            sets.append(AdvertisingSet(advertisingHandle: p.byte(at: o), duration: p.littleEndianUInt16(at: o + 1),
                                       maxExtendedAdvertisingEvents: p.byte(at: o + 3)))
        }
        self.sets = sets
    }
}
