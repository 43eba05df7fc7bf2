import SwiftATTCore
import SwiftATTSecurity
import Synchronization

/// The bonds a host keeps: looked up when a bonded peer reconnects (to encrypt, to
/// answer its LTK request, to resolve its private address), added when pairing ends
/// with bonding, listed and removed by the application.
///
/// In memory, with an optional `persist` hook that hears every change (with the whole
/// list) and keeps it somewhere that outlives the process (a `SecurityStorage`'s
/// file or database). The hook runs under the store's lock, so two changes reach it in the order
/// they were made. When it fails the change still holds in memory — the link it came
/// from is encrypted with those keys either way — and the call throws, so that the
/// loss is reported rather than found at the next start.
/// `Sendable`: the loop and the application's tasks use it.
public final class BondStore: Sendable {
    public typealias Persist = @Sendable ([Bond]) throws(SecurityStorageError) -> Void

    private let state: Mutex<[Bond]>
    private let persist: Persist?
    private let changes = Atomic<Int>(0)

    /// Counts the changes so far: what a cache of lookups (`IdentityResolver`) compares
    /// to know its answers still hold.
    public var generation: Int { changes.load(ordering: .acquiring) }

    public init(_ bonds: [Bond] = [], persist: Persist? = nil) {
        state = Mutex(bonds)
        self.persist = persist
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

    /// Keeps `bond`, replacing an earlier bond with the same peer (re-pairing). Throws
    /// when it could not be persisted (it is kept in memory all the same).
    public func save(_ bond: Bond) throws(SecurityStorageError) {
        try change { bonds in
            bonds.removeAll { $0.peer == bond.peer }
            bonds.append(bond)
            return true
        }
    }

    /// Forgets the bond with `peer`; false if there was none. Throws when the removal
    /// could not be persisted.
    @discardableResult
    public func remove(_ peer: BluetoothAddress) throws(SecurityStorageError) -> Bool {
        try change { bonds in
            let before = bonds.count
            bonds.removeAll { $0.peer == peer || $0.matches(peer) }
            return bonds.count != before
        }
    }

    /// Forgets every bond. Throws when that could not be persisted.
    public func removeAll() throws(SecurityStorageError) {
        try change { bonds in
            bonds.removeAll()
            return true
        }
    }

    /// Applies `body`, and persists the result when it says something changed.
    @discardableResult
    private func change(_ body: (inout [Bond]) -> Bool) throws(SecurityStorageError) -> Bool {
        try state.withLock { (bonds: inout [Bond]) throws(SecurityStorageError) -> Bool in
            guard body(&bonds) else { return false }
            changes.add(1, ordering: .releasing)
            try persist?(bonds)
            return true
        }
    }
}
