/// SplitMix64 (Steele, Lea, Flood 2014): a tiny seeded generator that gives the same
/// sequence on every platform, so a fuzz-style test that fails can be run again from its
/// seed. For tests only; `RandomNumberGenerator`, so `Int.random(in:using:)` and the
/// like take it.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    public var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
