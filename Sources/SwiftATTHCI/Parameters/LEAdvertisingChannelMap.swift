/// The primary advertising channels to use (Advertising_Channel_Map): bit 0 is channel 37,
/// bit 1 channel 38, bit 2 channel 39. Core 5.4 Vol 4 Part E §7.8.5.
public struct LEAdvertisingChannelMap: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Channel 37 (2402 MHz).
    public static let channel37 = LEAdvertisingChannelMap(rawValue: 1 << 0)
    /// Channel 38 (2426 MHz).
    public static let channel38 = LEAdvertisingChannelMap(rawValue: 1 << 1)
    /// Channel 39 (2480 MHz).
    public static let channel39 = LEAdvertisingChannelMap(rawValue: 1 << 2)
    /// All three channels: the usual choice (0x07).
    public static let all: LEAdvertisingChannelMap = [.channel37, .channel38, .channel39]
}
