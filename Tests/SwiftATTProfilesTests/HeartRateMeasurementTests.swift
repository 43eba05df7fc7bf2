import SwiftATTCore
import SwiftATTProfiles
import Testing

/// Heart Rate Measurement (0x2A37) vectors, GATT Specification Supplement §3.113.
struct HeartRateMeasurementTests {
    struct Vector: Sendable, CustomTestStringConvertible {
        let name: String
        let hex: String
        let measurement: HeartRateMeasurement
        var testDescription: String { name }
    }

    static let vectors: [Vector] = [
        Vector(name: "uint8, nothing else (seed 002's reportData[1])", hex: "0048",
               measurement: HeartRateMeasurement(beatsPerMinute: 72)),
        Vector(name: "uint16 format for a small rate", hex: "014800",
               measurement: HeartRateMeasurement(beatsPerMinute: 72, format: .uint16)),
        Vector(name: "uint16 above 255", hex: "012c01",
               measurement: HeartRateMeasurement(beatsPerMinute: 300)),
        Vector(name: "contact detected, one RR-interval", hex: "16485503",
               measurement: HeartRateMeasurement(beatsPerMinute: 72, sensorContact: .detected, rrIntervals: [853])),
        Vector(name: "contact supported, not detected, energy expended", hex: "0c3c0a00",
               measurement: HeartRateMeasurement(beatsPerMinute: 60, sensorContact: .notDetected, energyExpended: 10)),
        Vector(name: "every field, uint16, two RR-intervals", hex: "1f9000341200040002",
               measurement: HeartRateMeasurement(
                   beatsPerMinute: 144, format: .uint16, sensorContact: .detected, energyExpended: 0x1234,
                   rrIntervals: [1024, 512])),
        Vector(name: "energy expended saturated", hex: "0850ffff",
               measurement: HeartRateMeasurement(beatsPerMinute: 80, energyExpended: 0xFFFF)),
    ]

    @Test(arguments: vectors) func encodes(_ v: Vector) throws {
        #expect(Hex.encode(v.measurement.encoded()) == v.hex)
        #expect(v.measurement.encodedLength == v.hex.count / 2)
    }

    @Test(arguments: vectors) func decodesAndRoundTrips(_ v: Vector) throws {
        let bytes = try Hex.decode(v.hex)
        let decoded = try HeartRateMeasurement(decoding: bytes)
        #expect(decoded == v.measurement)
        #expect(decoded.encoded() == bytes)
    }

    @Test func flagsFollowTheFields() {
        let m = HeartRateMeasurement(beatsPerMinute: 300, format: .uint8, sensorContact: .detected, energyExpended: 5, rrIntervals: [1])
        #expect(m.encodedFormat == .uint16)
        #expect(m.flags == [.valueFormatUInt16, .sensorContactDetected, .sensorContactSupported, .energyExpendedPresent, .rrIntervalPresent])
        #expect(m.flags.rawValue == 0x1F)
        #expect(HeartRateMeasurement(beatsPerMinute: 72, sensorContact: .notDetected).flags.rawValue == 0x04)
        #expect(HeartRateMeasurement(beatsPerMinute: 72, rrIntervals: [1024]).rrIntervalsInMilliseconds == [1000])
    }

    @Test func reservedFlagBitsAndContactBitWithoutSupportAreIgnored() throws {
        let m = try HeartRateMeasurement(decoding: [0xE2, 0x48])
        #expect(m == HeartRateMeasurement(beatsPerMinute: 72, sensorContact: .notSupported))
    }

    struct Malformed: Sendable, CustomTestStringConvertible {
        let hex: String
        let error: ProfileDecodingError
        var testDescription: String { hex.isEmpty ? "(empty)" : hex }
    }

    static let malformed: [Malformed] = [
        Malformed(hex: "", error: .truncated(value: "Heart Rate Measurement", need: 1, have: 0)),
        Malformed(hex: "00", error: .truncated(value: "Heart Rate Measurement", need: 2, have: 1)),
        Malformed(hex: "0148", error: .truncated(value: "Heart Rate Measurement", need: 3, have: 2)),
        Malformed(hex: "08480a", error: .truncated(value: "Heart Rate Measurement", need: 4, have: 3)),
        Malformed(hex: "1048", error: .truncated(value: "Heart Rate Measurement", need: 4, have: 2)),
        Malformed(hex: "18480a00", error: .truncated(value: "Heart Rate Measurement", need: 6, have: 4)),
        Malformed(hex: "104800040a", error: .invalidLength(
            value: "Heart Rate Measurement", length: 5, expected: "2 octets and whole 2-octet RR-intervals")),
        Malformed(hex: "004800", error: .invalidLength(
            value: "Heart Rate Measurement", length: 3, expected: "2 octets (no RR-Interval flag)")),
    ]

    @Test(arguments: malformed) func rejectsMalformed(_ m: Malformed) throws {
        #expect(throws: m.error) { try HeartRateMeasurement(decoding: try Hex.decode(m.hex)) }
    }

    /// Every truncation of a value without RR-intervals fails (with RR-intervals a
    /// shorter value can be a valid one with fewer intervals).
    @Test func everyTruncationFails() throws {
        for v in Self.vectors where v.measurement.rrIntervals.isEmpty {
            let bytes = try Hex.decode(v.hex)
            for n in 0..<bytes.count {
                #expect(throws: ProfileDecodingError.self) { try HeartRateMeasurement(decoding: Array(bytes.prefix(n))) }
            }
        }
    }

    @Test func decodesFromASliceWithAnOffset() throws {
        let buffer: [UInt8] = [0xAA, 0xBB, 0x01, 0x2C, 0x01]
        #expect(try HeartRateMeasurement(decoding: buffer[2...]).beatsPerMinute == 300)
    }

    @Test func errorsReadWell() {
        #expect(ProfileDecodingError.truncated(value: "Heart Rate Measurement", need: 3, have: 2).description
            == "Heart Rate Measurement: truncated: need 3 octets, have 2")
        #expect(ProfileDecodingError.invalidField(value: "Light command", field: "state", byte: 0x07, offset: 1).description
            == "Light command: state 0x07 at offset 1 is not defined")
    }
}
