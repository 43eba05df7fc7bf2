import SwiftATTGATT
import SwiftATTHCI

extension ATTBearerError.DisconnectReason {
    /// Why a link's pending work fails when the controller reports a hardware error: the
    /// host resets the controller, which ends every link (Core 5.4 Vol 4 Part E §7.7.16,
    /// §7.3.2). Code 0x03 is the spec's Hardware Failure (Vol 1 Part F §1.3).
    public static func hardwareError(_ code: UInt8) -> Self {
        Self(code: HCIStatus.hardwareFailure.rawValue,
             name: "Hardware Failure: \(HCIError.hardwareError(code)); the host reset it")
    }
}
