/// What the user just did while entering a passkey, as a Pairing Keypress Notification
/// reports it.
///
/// Core 5.4 Vol 3 Part H §3.5.8. Values 0x05–0xFF are reserved; a PDU carrying one fails
/// to decode (`SMPDecodingError.reservedValue`).
public enum KeypressNotificationType: UInt8, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// The user started typing the passkey.
    case entryStarted = 0x00
    /// A digit was entered.
    case digitEntered = 0x01
    /// A digit was erased.
    case digitErased = 0x02
    /// The entry was cleared.
    case cleared = 0x03
    /// The user finished entering the passkey.
    case entryCompleted = 0x04

    /// The spec's words: "Passkey digit entered".
    public var description: String {
        switch self {
        case .entryStarted: return "Passkey entry started"
        case .digitEntered: return "Passkey digit entered"
        case .digitErased: return "Passkey digit erased"
        case .cleared: return "Passkey cleared"
        case .entryCompleted: return "Passkey entry completed"
        }
    }
}
