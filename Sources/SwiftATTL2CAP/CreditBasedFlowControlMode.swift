/// The two ways LE carries a connection-oriented channel, and the sizes each allows.
///
/// Core 5.4 Vol 3 Part A §3.4.3 (LE Credit Based Flow Control mode: one channel per
/// request, §4.22) and Enhanced Credit Based Flow Control mode (up to five channels per
/// request and reconfiguration, §4.25–4.28). Both send K-frames under the same credit
/// rules; they differ in their minimum MTU and MPS.
public enum CreditBasedFlowControlMode: Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// LE Credit Based Connection Request/Response.
    case leCreditBased
    /// Credit Based Connection and Reconfigure Request/Response ("ECFC").
    case enhancedCreditBased

    /// The SDU sizes a channel may declare it can receive (§4.22, §4.25).
    public var mtuRange: ClosedRange<UInt16> {
        switch self {
        case .leCreditBased: return 23...0xFFFF
        case .enhancedCreditBased: return 64...0xFFFF
        }
    }

    /// The K-frame payload sizes a channel may declare it can receive. The top is two
    /// short of 0xFFFF so that the first K-frame, MPS plus its 2-octet SDU length, still
    /// fits a 16-bit L2CAP length (§4.22, §4.25).
    public var mpsRange: ClosedRange<UInt16> {
        switch self {
        case .leCreditBased: return 23...0xFFFD
        case .enhancedCreditBased: return 64...0xFFFD
        }
    }

    /// Credits a Flow Control Credit Indication may grant (§4.24); a channel whose
    /// outstanding credits would pass 65535 is disconnected (§10.1).
    public static let creditIndicationRange: ClosedRange<UInt16> = 1...0xFFFF
    /// The most credits a device may hold for a channel at once (§10.1).
    public static let maximumCredits = 0xFFFF

    public var description: String {
        switch self {
        case .leCreditBased: return "LE Credit Based Flow Control mode"
        case .enhancedCreditBased: return "Enhanced Credit Based Flow Control mode"
        }
    }
}
