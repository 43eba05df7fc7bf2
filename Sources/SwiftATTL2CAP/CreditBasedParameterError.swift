import SwiftATTCore

/// A credit-based command's value outside the range Core 5.4 allows it: which command,
/// which field, the value, and the range.
///
/// Decoding keeps such values (`LESignalingDecodingError` is for structure only); the
/// `validate()` of each command throws this, and the result properties say what the spec
/// has the receiver answer, so the channel state machine refuses a request the way Part A
/// §4.22–4.28 prescribe without its own table.
public struct CreditBasedParameterError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The command the value came in.
    public var code: LESignalingCode
    /// The field that holds it.
    public var field: Field
    /// The value received.
    public var value: UInt16
    /// The values the spec allows there.
    public var allowed: ClosedRange<UInt16>

    /// A value out of its range.
    public init(code: LESignalingCode, field: Field, value: UInt16, allowed: ClosedRange<UInt16>) {
        self.code = code
        self.field = field
        self.value = value
        self.allowed = allowed
    }

    /// The fields with a range.
    public enum Field: Sendable, Hashable, CaseIterable, CustomStringConvertible {
        /// The SPSM of a connection request.
        case spsm
        /// A Source CID: the sender's end of a channel.
        case sourceCID
        /// A Destination CID: the receiver's end of a channel.
        case destinationCID
        /// The CID of a Flow Control Credit Indication.
        case cid
        /// The MTU: the largest SDU.
        case mtu
        /// The MPS: the largest K-frame payload.
        case mps
        /// Credits: initial, or granted.
        case credits

        /// The field's name in the spec's figures.
        public var description: String {
            switch self {
            case .spsm: return "SPSM"
            case .sourceCID: return "Source CID"
            case .destinationCID: return "Destination CID"
            case .cid: return "CID"
            case .mtu: return "MTU"
            case .mps: return "MPS"
            case .credits: return "Credits"
            }
        }
    }

    /// Checks `value` against `allowed`.
    static func check(_ value: UInt16, in allowed: ClosedRange<UInt16>, _ field: Field,
                      of code: LESignalingCode) throws(CreditBasedParameterError) {
        guard allowed.contains(value) else {
            throw CreditBasedParameterError(code: code, field: field, value: value, allowed: allowed)
        }
    }

    /// The refusal an LE Credit Based Connection Request with this value gets (§4.23):
    /// a reserved SPSM is one not supported, a CID outside the dynamic range an invalid
    /// source CID, and a too-small MTU or MPS unacceptable parameters.
    public var leCreditBasedConnectionResult: LECreditBasedConnectionResult {
        switch field {
        case .spsm: return .spsmNotSupported
        case .sourceCID, .destinationCID, .cid: return .invalidSourceCID
        case .mtu, .mps, .credits: return .unacceptableParameters
        }
    }

    /// The refusal a Credit Based Connection Request with this value gets (§4.26). A bad
    /// Source CID refuses only its own connection ("some connections refused"); the
    /// others refuse all.
    public var creditBasedConnectionResult: CreditBasedConnectionResult {
        switch field {
        case .spsm: return .spsmNotSupported
        case .sourceCID, .destinationCID, .cid: return .invalidSourceCID
        case .mtu, .mps, .credits: return .unacceptableParameters
        }
    }

    /// The refusal a Credit Based Reconfigure Request with this value gets (§4.28).
    public var creditBasedReconfigureResult: CreditBasedReconfigureResult {
        switch field {
        case .sourceCID, .destinationCID, .cid: return .invalidDestinationCID
        case .spsm, .mtu, .mps, .credits: return .otherUnacceptableParameters
        }
    }

    /// `LE Credit Based Connection Request (0x14): MPS 20 is outside 23–65533 (Core 5.4 Vol 3 Part A §4.22)`.
    public var description: String {
        let shown: (UInt16) -> String = { [field] v in
            switch field {
            case .spsm, .sourceCID, .destinationCID, .cid: return Hex.handle(v)
            case .mtu, .mps, .credits: return "\(v)"
            }
        }
        return "\(code): \(field) \(shown(value)) is outside \(shown(allowed.lowerBound))–\(shown(allowed.upperBound)) (Core 5.4 Vol 3 Part A \(code.section))"
    }
}
