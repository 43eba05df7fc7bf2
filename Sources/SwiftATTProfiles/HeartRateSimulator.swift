/// A pretend wearer for `swift-att peripheral heart-rate`: the same measurements for the
/// same seed, every run.
///
/// The rate follows a triangle wave from 60 up to 100 and back over 40 measurements,
/// with ±2 BPM of jitter from a seeded SplitMix64, clamped to 60–100. Each measurement
/// carries the sensor contact (detected), one RR-interval matching the rate (60/BPM
/// seconds in 1/1024 s, with ±8 units of jitter), and — on every tenth measurement, as
/// HRS §3.1.1.3 suggests — the Energy Expended accumulated so far, which saturates at
/// 0xFFFF and which the Control Point resets.
public struct HeartRateSimulator: Hashable, Sendable {
    /// The rates the wave moves between, in BPM.
    public static let range: ClosedRange<UInt16> = 60...100
    /// Measurements per rise-and-fall of the wave.
    public static let period = 40
    /// Energy Expended is included once every this many measurements.
    public static let energyEvery = 10

    /// The seed of the jitter: the same seed, the same measurements.
    public let seed: UInt64
    /// The heart rate's format in the measurements made.
    public var format: HeartRateMeasurement.ValueFormat
    /// Milliseconds of exercise each measurement stands for (for Energy Expended).
    public var intervalMilliseconds: Int
    /// Measurements made so far.
    public private(set) var count = 0
    private var random: SplitMix64
    private var joules: UInt64 = 0

    /// A wearer whose jitter comes from `seed`, each measurement standing for
    /// `intervalMilliseconds` of exercise.
    public init(seed: UInt64 = 1, format: HeartRateMeasurement.ValueFormat = .uint8, intervalMilliseconds: Int = 1000) {
        self.seed = seed
        self.format = format
        self.intervalMilliseconds = max(0, intervalMilliseconds)
        random = SplitMix64(seed: seed)
    }

    /// Kilojoules accumulated since the start or the last reset, saturated at 0xFFFF.
    public var energyExpended: UInt16 { UInt16(clamping: joules / 1000) }

    /// Control Point 0x01.
    public mutating func resetEnergyExpended() {
        joules = 0
    }

    /// The next measurement.
    public mutating func next() -> HeartRateMeasurement {
        let phase = count % Self.period
        let half = Self.period / 2
        let span = Int(Self.range.upperBound - Self.range.lowerBound)
        let wave = phase < half ? phase * span / half : span - (phase - half) * span / half
        let jitter = Int(random.next() % 5) - 2
        let bpm = UInt16(clamping: min(max(Int(Self.range.lowerBound) + wave + jitter, Int(Self.range.lowerBound)), Int(Self.range.upperBound)))
        let rrJitter = Int(random.next() % 17) - 8
        let rr = UInt16(clamping: 60 * 1024 / Int(bpm) + rrJitter)
        // About 24 kJ a minute at 80 BPM: a brisk walk.
        joules += UInt64(bpm) * UInt64(intervalMilliseconds) / 200
        let energy: UInt16? = count % Self.energyEvery == 0 ? energyExpended : nil
        count += 1
        return HeartRateMeasurement(
            beatsPerMinute: bpm, format: format, sensorContact: .detected, energyExpended: energy, rrIntervals: [rr])
    }
}

/// SplitMix64 (Steele, Lea, Flood 2014): a tiny, seedable generator; plenty for jitter.
struct SplitMix64: Hashable, Sendable {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
