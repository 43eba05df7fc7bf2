import SwiftATTCore

/// The Heart Rate Measurement characteristic's value (0x2A37): a flags octet, the heart
/// rate as a uint8 or a uint16, then optionally Energy Expended and RR-Intervals.
/// GATT Specification Supplement §3.113 (Heart Rate Measurement); HRS 1.0 §3.1.
///
/// Seed 002's central reads the flags' bit 0 to choose between `reportData[1]` (uint8)
/// and the little-endian uint16 at `reportData[1...2]`. Reserved flag bits (5–7) are
/// ignored when decoding and never written.
///
///     let m = try HeartRateMeasurement(decoding: [0x16, 0x48, 0x55, 0x03])
///     m.beatsPerMinute                    // 72
///     m.sensorContact                     // .detected
///     m.rrIntervals                       // [853]  (1/1024 s)
public struct HeartRateMeasurement: Hashable, Sendable {
    /// How the heart rate is written: flags bit 0.
    public enum ValueFormat: Hashable, Sendable {
        /// One octet: rates up to 255.
        case uint8
        /// Two octets, little-endian.
        case uint16
    }

    /// Flags bits 1–2: whether the sensor can tell it touches the skin, and whether it does.
    public enum SensorContact: Hashable, Sendable {
        /// Bit 2 clear: the feature is not supported (bit 1 means nothing then).
        case notSupported
        /// Bits 2 set, 1 clear: supported, no (or poor) contact.
        case notDetected
        /// Bits 2 and 1 set.
        case detected
    }

    /// The flags octet.
    public struct Flags: OptionSet, Hashable, Sendable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        /// Bit 0: the rate is a uint16.
        public static let valueFormatUInt16 = Flags(rawValue: 0x01)
        /// Bit 1: skin contact detected (meaningful with bit 2).
        public static let sensorContactDetected = Flags(rawValue: 0x02)
        /// Bit 2: the sensor can detect skin contact.
        public static let sensorContactSupported = Flags(rawValue: 0x04)
        /// Bit 3: Energy Expended follows the rate.
        public static let energyExpendedPresent = Flags(rawValue: 0x08)
        /// Bit 4: RR-intervals end the value.
        public static let rrIntervalPresent = Flags(rawValue: 0x10)
    }

    /// Beats per minute.
    public var beatsPerMinute: UInt16
    /// The format asked for; a rate above 255 is always written as uint16.
    public var format: ValueFormat
    /// Whether the sensor can tell it touches the skin, and whether it does.
    public var sensorContact: SensorContact
    /// Kilojoules since the last reset (Control Point 0x01); 0xFFFF means "at least 65535".
    public var energyExpended: UInt16?
    /// Times between successive R waves, in units of 1/1024 second, oldest first.
    public var rrIntervals: [UInt16]

    /// A measurement; `format` defaults to uint8 when the rate fits in it.
    public init(
        beatsPerMinute: UInt16, format: ValueFormat? = nil, sensorContact: SensorContact = .notSupported,
        energyExpended: UInt16? = nil, rrIntervals: [UInt16] = []
    ) {
        self.beatsPerMinute = beatsPerMinute
        self.format = format ?? (beatsPerMinute > 0xFF ? .uint16 : .uint8)
        self.sensorContact = sensorContact
        self.energyExpended = energyExpended
        self.rrIntervals = rrIntervals
    }

    /// The format actually written.
    public var encodedFormat: ValueFormat { beatsPerMinute > 0xFF ? .uint16 : format }

    /// The flags octet these fields call for.
    public var flags: Flags {
        var f: Flags = []
        if encodedFormat == .uint16 { f.insert(.valueFormatUInt16) }
        switch sensorContact {
        case .notSupported: break
        case .notDetected: f.insert(.sensorContactSupported)
        case .detected: f.formUnion([.sensorContactSupported, .sensorContactDetected])
        }
        if energyExpended != nil { f.insert(.energyExpendedPresent) }
        if !rrIntervals.isEmpty { f.insert(.rrIntervalPresent) }
        return f
    }

    /// RR-intervals in milliseconds.
    public var rrIntervalsInMilliseconds: [Double] { rrIntervals.map { Double($0) * 1000 / 1024 } }

    // MARK: Encoding

    /// The encoded value's length in octets.
    public var encodedLength: Int {
        1 + (encodedFormat == .uint16 ? 2 : 1) + (energyExpended == nil ? 0 : 2) + 2 * rrIntervals.count
    }

    /// Appends the encoded value to `bytes`.
    public func encode(into bytes: inout [UInt8]) {
        bytes.reserveCapacity(bytes.count + encodedLength)
        bytes.append(flags.rawValue)
        if encodedFormat == .uint16 {
            bytes.append(littleEndian: beatsPerMinute)
        } else {
            bytes.append(UInt8(beatsPerMinute))
        }
        if let energyExpended { bytes.append(littleEndian: energyExpended) }
        for rr in rrIntervals { bytes.append(littleEndian: rr) }
    }

    /// The value as a characteristic carries it.
    public func encoded() -> [UInt8] {
        var bytes: [UInt8] = []
        encode(into: &bytes)
        return bytes
    }

    // MARK: Decoding

    static let name = "Heart Rate Measurement"

    /// Decodes a value: the flags say which fields follow; every announced field must be
    /// there, and what is left must be whole RR-intervals (and only when announced).
    public init(decoding bytes: ArraySlice<UInt8>) throws(ProfileDecodingError) {
        guard !bytes.isEmpty else { throw .truncated(value: Self.name, need: 1, have: 0) }
        let flags = Flags(rawValue: bytes.byte(at: 0))
        var need = 1 + (flags.contains(.valueFormatUInt16) ? 2 : 1)
        if flags.contains(.energyExpendedPresent) { need += 2 }
        if flags.contains(.rrIntervalPresent) { need += 2 }
        guard bytes.count >= need else { throw .truncated(value: Self.name, need: need, have: bytes.count) }

        var offset = 1
        if flags.contains(.valueFormatUInt16) {
            beatsPerMinute = bytes.littleEndianUInt16(at: offset)
            format = .uint16
            offset += 2
        } else {
            beatsPerMinute = UInt16(bytes.byte(at: offset))
            format = .uint8
            offset += 1
        }
        if !flags.contains(.sensorContactSupported) {
            sensorContact = .notSupported
        } else {
            sensorContact = flags.contains(.sensorContactDetected) ? .detected : .notDetected
        }
        if flags.contains(.energyExpendedPresent) {
            energyExpended = bytes.littleEndianUInt16(at: offset)
            offset += 2
        } else {
            energyExpended = nil
        }
        let rest = bytes.count - offset
        if !flags.contains(.rrIntervalPresent) {
            guard rest == 0 else {
                throw .invalidLength(value: Self.name, length: bytes.count, expected: "\(offset) octets (no RR-Interval flag)")
            }
            rrIntervals = []
            return
        }
        guard rest % 2 == 0 else {
            throw .invalidLength(value: Self.name, length: bytes.count, expected: "\(offset) octets and whole 2-octet RR-intervals")
        }
        var intervals: [UInt16] = []
        intervals.reserveCapacity(rest / 2)
        while offset < bytes.count {
            intervals.append(bytes.littleEndianUInt16(at: offset))
            offset += 2
        }
        rrIntervals = intervals
    }

    /// Decodes the value; throws if its length or a field is invalid.
    public init(decoding bytes: [UInt8]) throws(ProfileDecodingError) {
        try self.init(decoding: bytes[...])
    }
}
