import SwiftATTCore
import SwiftATTSecurity

/// Resolves resolvable private addresses to the identity addresses of bonded devices,
/// in the host (Core 5.4 Vol 6 Part B §1.3.2.3, Vol 3 Part C §10.8.2.3): each bond's IRK
/// is tried with `ah` until one gives the address's hash.
///
/// A scan sees the same few addresses many times a second, so each answer is kept until
/// the bonds change (a phone's address rotates every 15 minutes; a new bond may resolve
/// an address that no bond did before). Used by one scan task; not shared.
struct IdentityResolver {
    let bonds: BondStore
    private var answers: [BluetoothAddress: BluetoothAddress?] = [:]
    private var generation: Int?

    init(bonds: BondStore) {
        self.bonds = bonds
    }

    /// The identity of a bonded device behind `address`; nil for an address that is not
    /// resolvable, or that no bond's IRK resolves.
    mutating func identity(of address: BluetoothAddress) -> BluetoothAddress? {
        guard address.randomSubtype == .resolvablePrivate else { return nil }
        let current = bonds.generation
        if current != generation {
            answers.removeAll(keepingCapacity: true)
            generation = current
        }
        if let known = answers[address] { return known }
        let found = bonds.bond(for: address)?.peer
        answers[address] = found
        return found
    }
}
