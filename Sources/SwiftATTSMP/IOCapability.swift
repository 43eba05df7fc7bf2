/// What a device can show and enter, as Pairing Request and Pairing Response declare it.
///
/// Core 5.4 Vol 3 Part H §3.5.1 (the IO Capability field); §2.3.5.1 maps the two sides'
/// capabilities to Just Works, Passkey Entry or Numeric Comparison. Values 0x05–0xFF are
/// reserved; a PDU carrying one fails to decode (`SMPDecodingError.reservedValue`), which
/// the pairing machine answers with Invalid Parameters.
public enum IOCapability: UInt8, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Can show a number but take no input, not even yes or no.
    case displayOnly = 0x00
    /// Can show a number and take a yes or no: Numeric Comparison under Secure Connections.
    case displayYesNo = 0x01
    /// Can take digits but shows nothing.
    case keyboardOnly = 0x02
    /// Neither shows nor takes anything: Just Works, unauthenticated.
    case noInputNoOutput = 0x03
    /// A display and a keyboard.
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
