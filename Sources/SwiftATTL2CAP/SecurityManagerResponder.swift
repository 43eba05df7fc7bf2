/// Answers the Security Manager channel (CID 0x0006) until pairing is implemented.
///
/// Core 5.4 Vol 3 Part H §3.5.5: a device that cannot pair answers a Pairing Request
/// (0x01) — or, as a central, a Security Request (0x0B) — with Pairing Failed (0x05),
/// reason Pairing Not Supported (0x05). Anything else is ignored.
public enum SecurityManagerResponder {
    public static let pairingRequest: UInt8 = 0x01
    public static let pairingFailed: UInt8 = 0x05
    public static let securityRequest: UInt8 = 0x0B
    public static let pairingNotSupported: UInt8 = 0x05

    /// The SMP PDU to send back, if any.
    public static func handle(_ frame: ArraySlice<UInt8>) -> [UInt8]? {
        guard let code = frame.first else { return nil }
        switch code {
        case pairingRequest, securityRequest: return [pairingFailed, pairingNotSupported]
        default: return nil
        }
    }
}
