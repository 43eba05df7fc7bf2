import SwiftATTCore
import SwiftATTSecurity
import Synchronization

/// The bonds a host keeps: looked up when a bonded peer reconnects (to encrypt, to
/// answer its LTK request, to resolve its private address), added when pairing ends
/// with bonding, listed and removed by the application.
///
/// In memory; `onChange` hears every change (with the whole list), which is where a
/// file store writes them out. `Sendable`: the loop and the application's tasks use it.
public final class BondStore: Sendable {
    private let state: Mutex<[Bond]>
    private let onChange: (@Sendable ([Bond]) -> Void)?
    private let changes = Atomic<Int>(0)

    /// Counts the changes so far: what a cache of lookups (`IdentityResolver`) compares
    /// to know its answers still hold.
    public var generation: Int { changes.load(ordering: .acquiring) }

    public init(_ bonds: [Bond] = [], onChange: (@Sendable ([Bond]) -> Void)? = nil) {
        state = Mutex(bonds)
        self.onChange = onChange
    }

    /// Every bond, in the order they were made.
    public var bonds: [Bond] { state.withLock { $0 } }

    /// The bond with the peer at `address`: its identity address, or a resolvable
    /// private address one of the bonds' IRKs resolves.
    public func bond(for address: BluetoothAddress) -> Bond? {
        state.withLock { bonds in
            bonds.first { $0.peer == address } ?? bonds.first { $0.matches(address) }
        }
    }

    /// Keeps `bond`, replacing an earlier bond with the same peer (re-pairing).
    public func save(_ bond: Bond) {
        let all = state.withLock { bonds -> [Bond] in
            bonds.removeAll { $0.peer == bond.peer }
            bonds.append(bond)
            return bonds
        }
        changes.add(1, ordering: .releasing)
        onChange?(all)
    }

    /// Forgets the bond with `peer`; false if there was none.
    @discardableResult
    public func remove(_ peer: BluetoothAddress) -> Bool {
        let (removed, all) = state.withLock { bonds -> (Bool, [Bond]) in
            let before = bonds.count
            bonds.removeAll { $0.peer == peer || $0.matches(peer) }
            return (bonds.count != before, bonds)
        }
        if removed {
            changes.add(1, ordering: .releasing)
            onChange?(all)
        }
        return removed
    }

    /// Forgets every bond.
    public func removeAll() {
        state.withLock { $0.removeAll() }
        changes.add(1, ordering: .releasing)
        onChange?([])
    }
}
