import SwiftATTGATT

extension ATTBearerError.DisconnectReason {
    /// Why a link's pending work fails when the host loop stops: the links end with the
    /// controller (the transport failed, or the host was closed), whatever the peer did.
    static func controllerStopped(_ reason: ControllerError) -> Self {
        Self(code: 0x16, name: "the controller stopped: \(reason)")
    }
}
