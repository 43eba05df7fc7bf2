import SwiftATTSMP

/// How the two devices authenticate each other: the association model.
///
/// Core 5.4 Vol 3 Part H §2.3.5.1: out of band when OOB data is present (both flags in
/// legacy pairing, either in Secure Connections), Just Works when neither side asks for
/// MITM protection, and otherwise the IO capability table (Table 2.8).
public enum PairingMethod: Sendable, Hashable, CustomStringConvertible {
    /// No user involvement; no protection against a man in the middle.
    case justWorks
    /// Both devices show a six-digit number and both users confirm it (Secure Connections only).
    case numericComparison
    /// A six-digit passkey shown on one device and typed into the other, or typed into both.
    case passkeyEntry(initiatorInputs: Bool, responderInputs: Bool)
    /// Data exchanged over another channel (NFC, a QR code).
    case outOfBand

    /// Whether the method protects against a man in the middle (an authenticated key).
    public var isAuthenticated: Bool {
        if case .justWorks = self { return false }
        return true
    }

    public var description: String {
        switch self {
        case .justWorks: return "Just Works"
        case .numericComparison: return "Numeric Comparison"
        case .passkeyEntry: return "Passkey Entry"
        case .outOfBand: return "Out of Band"
        }
    }

    /// The method for these features (the initiator's request, the responder's response).
    public static func select(initiator: PairingFeatures, responder: PairingFeatures,
                              secureConnections: Bool) -> PairingMethod {
        if secureConnections {
            if initiator.oobDataPresent || responder.oobDataPresent { return .outOfBand }
        } else if initiator.oobDataPresent && responder.oobDataPresent {
            return .outOfBand
        }
        let mitm = initiator.authenticationRequirements.contains(.mitm)
            || responder.authenticationRequirements.contains(.mitm)
        guard mitm else { return .justWorks }
        return fromCapabilities(initiator: initiator.ioCapability, responder: responder.ioCapability,
                                secureConnections: secureConnections)
    }

    /// Table 2.8: rows are the initiator's IO capability, columns the responder's.
    static func fromCapabilities(initiator i: IOCapability, responder r: IOCapability,
                                 secureConnections sc: Bool) -> PairingMethod {
        // Who types the passkey when one side displays it.
        let initiatorDisplays = PairingMethod.passkeyEntry(initiatorInputs: false, responderInputs: true)
        let responderDisplays = PairingMethod.passkeyEntry(initiatorInputs: true, responderInputs: false)
        switch (i, r) {
        case (.noInputNoOutput, _), (_, .noInputNoOutput):
            return .justWorks
        case (.displayOnly, .displayOnly), (.displayOnly, .displayYesNo),
             (.displayYesNo, .displayOnly):
            return .justWorks
        case (.displayOnly, .keyboardOnly), (.displayOnly, .keyboardDisplay),
             (.displayYesNo, .keyboardOnly), (.keyboardDisplay, .keyboardOnly):
            return initiatorDisplays
        case (.keyboardOnly, .displayOnly), (.keyboardOnly, .displayYesNo),
             (.keyboardOnly, .keyboardDisplay), (.keyboardDisplay, .displayOnly):
            return responderDisplays
        case (.keyboardOnly, .keyboardOnly):
            return .passkeyEntry(initiatorInputs: true, responderInputs: true)
        case (.displayYesNo, .displayYesNo):
            return sc ? .numericComparison : .justWorks
        case (.displayYesNo, .keyboardDisplay), (.keyboardDisplay, .keyboardDisplay):
            return sc ? .numericComparison : initiatorDisplays
        case (.keyboardDisplay, .displayYesNo):
            return sc ? .numericComparison : responderDisplays
        }
    }
}
