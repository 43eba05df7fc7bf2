/// What a device can show and enter, as Pairing Request and Pairing Response declare it.
///
/// Core 5.4 Vol 3 Part H §3.5.1 (the IO Capability field); §2.3.5.1 maps the two sides'
/// capabilities to Just Works, Passkey Entry or Numeric Comparison. Values 0x05–0xFF are
/// reserved; a PDU carrying one fails to decode (`SMPDecodingError.reservedValue`), which
/// the pairing machine answers with Invalid Parameters.
public enum IOCapability: UInt8, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case displayOnly = 0x00
    case displayYesNo = 0x01
    case keyboardOnly = 0x02
    case noInputNoOutput = 0x03
    case keyboardDisplay = 0x04

    /// The spec's name: "DisplayYesNo".
    public var description: String {
        switch self {
        case .displayOnly: return "DisplayOnly"
        case .displayYesNo: return "DisplayYesNo"
        case .keyboardOnly: return "KeyboardOnly"
        case .noInputNoOutput: return "NoInputNoOutput"
        case .keyboardDisplay: return "KeyboardDisplay"
        }
    }
}
