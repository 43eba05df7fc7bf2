import SwiftATTHCI

/// Controller failures a test injects, so that a host's recovery can be tested without
/// hardware that fails on cue.
extension LinkState {
    /// Controller `index` fails and says so with a Hardware Error event (Core 5.4 Vol 4
    /// Part E §7.7.16). Its links are lost as a reset would lose them: the peers see a
    /// supervision timeout, its own host hears nothing but the event. Advertising,
    /// scanning and addresses are gone too, as after HCI_Reset.
    mutating func hardwareError(_ index: Int, code: UInt8) {
        dropLinks(of: index, peerReason: .connectionTimeout)
        controllers[index].reset()
        send(HardwareError(hardwareCode: code), to: index)
    }
}
