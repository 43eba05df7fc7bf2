import SwiftATTCore

/// The connection interval range a peripheral prefers, in units of 1.25 ms.
///
/// Core Specification Supplement Part A §1.9: two 16-bit values, minimum then maximum.
/// Valid intervals are 0x0006–0x0C80 (7.5 ms–4 s); 0xFFFF means "no specific value".
/// Values outside the range are kept as sent: a scanner reports, it does not police.
public struct PeripheralConnectionIntervalRange: Hashable, Sendable, CustomStringConvertible {
    /// The shortest interval wanted, in 1.25 ms units, or `noSpecificValue`.
    public var minimum: UInt16
    /// The longest interval wanted, in 1.25 ms units, or `noSpecificValue`.
    public var maximum: UInt16

    /// "No specific minimum/maximum".
    public static let noSpecificValue: UInt16 = 0xFFFF

    /// A range from `minimum` to `maximum`, kept as given.
    public init(minimum: UInt16, maximum: UInt16) {
        self.minimum = minimum
        self.maximum = maximum
    }

    @usableFromInline
    init(validated s: ADStructure) {
        minimum = s.data.littleEndianUInt16(at: 0)
        maximum = s.data.littleEndianUInt16(at: 2)
    }

    /// The range a structure holds; `nil` when the structure is of another type.
    public init?(_ s: ADStructure) {
        guard s.type == .peripheralConnectionIntervalRange else { return nil }
        self.init(validated: s)
    }

    /// The minimum in milliseconds; `nil` for "no specific value".
    public var minimumMilliseconds: Double? { Self.milliseconds(minimum) }
    /// The maximum in milliseconds; `nil` for "no specific value".
    public var maximumMilliseconds: Double? { Self.milliseconds(maximum) }

    static func milliseconds(_ units: UInt16) -> Double? {
        units == noSpecificValue ? nil : Double(units) * 1.25
    }

    /// `7.5 ms – 30 ms`, with `any` for 0xFFFF.
    public var description: String {
        func text(_ v: Double?) -> String { v.map { "\(AdvertisingFormat.decimal($0)) ms" } ?? "any" }
        return "\(text(minimumMilliseconds)) – \(text(maximumMilliseconds))"
    }
}
