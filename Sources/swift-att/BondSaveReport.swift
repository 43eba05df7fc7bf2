import SwiftATTHost

/// Prints, as errors, every bond a host made that its bond file could not keep: the
/// pairing worked and the link is encrypted, but the next run will not know the peer,
/// and the user should hear so now rather than then.
enum BondSaveReport {
    static func watch(_ controller: Controller) -> Task<Void, Never> {
        let events = controller.securityEvents()
        return Task {
            for await event in events {
                if case let .bondNotSaved(_, peer, error) = event {
                    Output.error("the bond with \(peer) was not saved: \(error)")
                }
            }
        }
    }
}
