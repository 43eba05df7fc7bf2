import SwiftATTHost
import SwiftATTSecurity

extension CentralActions {
    /// `central pair DEVICE`: pairs now (anew when a bond exists) and prints how — the
    /// association model, whether it is authenticated, the key size, the bond.
    func pair() async throws(CommandError) -> Int32 {
        let events = peer.controller.securityEvents()
        Output.progress("pairing with \(peer.address) (IO capability \(PairingOptions.word(for: options.pairing.io)))…")
        do {
            try await peer.pair()
        } catch {
            throw .peer("pairing with \(peer.address): \(error.description.dropPrefix("pairing failed: "))")
        }
        // The pairing's event was sent before `pair()` returned.
        for await event in events {
            guard event.handle == peer.handle, case .paired = event.change else { continue }
            report.emit(SecurityEventText.text(event), SecurityEventText.json(event))
            break
        }
        return 0
    }
}
