import SwiftATTCore
import SwiftATTGATT
import SwiftATTSecurity
import Synchronization

/// The bonds a host keeps: looked up when a bonded peer reconnects (to encrypt, to
/// answer its LTK request, to resolve its private address), added when pairing ends
/// with bonding, listed and removed by the application. With each bond, what the GATT
/// server keeps for that peer (`GATTBondedClient`), so that its subscriptions and
/// change-awareness outlive the host.
///
/// In memory, with an optional `persist` hook that hears the whole contents and keeps
/// them somewhere that outlives the process (a `SecurityStorage`'s file or database).
/// The hook runs under the store's lock, so two writes reach it in the order they were
/// made.
///
/// Two kinds of change:
/// - A bond made or removed (`save`, `remove`, `removeAll`) is written before the call
///   returns. When the write fails the change still holds in memory — the link it came
///   from is encrypted with those keys either way — and the call throws, so that the
///   loss is reported rather than found at the next start. A removal is also told to
///   the hosts that use the store before the call returns (`observeRemovals`): each
///   queues its GATT server's forgetting of the peer on its loop, ahead of anything
///   handed to that loop afterwards.
/// - What moves while the host runs — a bond's sign counters (`stage`), the GATT state
///   of a bonded client (`stageGATTClient`) — changes memory at once and is written by
///   the next `flush()` (or with the next change of the first kind). The host flushes
///   on its own schedule (`BondSync`): a peer that writes or subscribes in a burst costs
///   one write, not one per PDU.
///
/// `Sendable`: the loop and the application's tasks use it.
public final class BondStore: Sendable {
    /// Everything the store holds, as `persist` hears it.
    public struct Contents: Sendable, Hashable {
        /// In the order they were made; at most one per peer.
        public var bonds: [Bond]
        /// What the GATT server keeps for bonded clients, by their bond's `peer`; only
        /// for peers in `bonds`.
        public var gattClients: [BluetoothAddress: GATTBondedClient]

        /// Contents of `bonds`; GATT state for a peer with no bond is dropped.
        public init(bonds: [Bond] = [], gattClients: [BluetoothAddress: GATTBondedClient] = [:]) {
            self.bonds = bonds
            self.gattClients = gattClients.filter { entry in bonds.contains { $0.peer == entry.key } }
        }
    }

    /// Keeps the store's whole contents somewhere that outlives the process; called under the
    /// store's lock, so writes arrive in order. An error it throws is thrown by the call that
    /// changed the store (`save`, `remove`, `flush()`).
    public typealias Persist = @Sendable (Contents) throws(SecurityStorageError) -> Void

    /// Hears the peers (bonds' `peer`) whose bonds a `remove` or `removeAll` took away.
    typealias RemovalObserver = @Sendable (Set<BluetoothAddress>) -> Void

    private struct State {
        var contents: Contents
        /// Peers whose staged changes no write has kept yet.
        var unsaved: Set<BluetoothAddress> = []
        /// `observeRemovals`, by the token it returned.
        var removalObservers: [Int: RemovalObserver] = [:]
        var nextObserverToken = 0
    }

    private let state: Mutex<State>
    private let persist: Persist?
    private let changes = Atomic<Int>(0)
    /// Staged changes wait for a write: read by the host's loop every turn, without the lock.
    private let hasUnsaved = Atomic<Bool>(false)
    /// Counts every staged change, never reset: compared after a failed write to know
    /// whether anything new came since.
    private let staged = Atomic<Int>(0)

    /// Counts the bonds made and removed so far: what a cache of lookups
    /// (`IdentityResolver`) compares to know its answers still hold. Staged changes do
    /// not count.
    public var generation: Int { changes.load(ordering: .acquiring) }

    /// A store of `bonds` whose changes go to `persist` (nowhere: kept in memory only).
    public init(_ bonds: [Bond] = [], gattClients: [BluetoothAddress: GATTBondedClient] = [:], persist: Persist? = nil) {
        state = Mutex(State(contents: Contents(bonds: bonds, gattClients: gattClients)))
        self.persist = persist
    }

    /// Every bond, in the order they were made.
    public var bonds: [Bond] { state.withLock { $0.contents.bonds } }

    /// The bonds and the GATT state kept with them.
    public var contents: Contents { state.withLock { $0.contents } }

    /// The bond with the peer at `address`: its identity address, or a resolvable
    /// private address one of the bonds' IRKs resolves.
    public func bond(for address: BluetoothAddress) -> Bond? {
        state.withLock { state in
            let bonds = state.contents.bonds
            return bonds.first { $0.peer == address } ?? bonds.first { $0.matches(address) }
        }
    }

    /// What the GATT server keeps for the bonded client `peer` (a bond's `peer`).
    public func gattClient(of peer: BluetoothAddress) -> GATTBondedClient? {
        state.withLock { $0.contents.gattClients[peer] }
    }

    // MARK: Written at once

    /// Keeps `bond`, replacing an earlier bond with the same peer (re-pairing). The GATT
    /// state kept for the peer stays until the server reports the peer's next (after a
    /// pairing on a link, that link's own state). Throws when it could not be persisted
    /// (it is kept in memory all the same).
    public func save(_ bond: Bond) throws(SecurityStorageError) {
        try change { contents, _ in
            contents.bonds.removeAll { $0.peer == bond.peer }
            contents.bonds.append(bond)
            return true
        }
    }

    /// Forgets the bond with `peer` and the GATT state kept with it; false if there was
    /// none. Throws when the removal could not be persisted.
    @discardableResult
    public func remove(_ peer: BluetoothAddress) throws(SecurityStorageError) -> Bool {
        try change { contents, removed in
            removed = Set(contents.bonds.filter { $0.peer == peer || $0.matches(peer) }.map(\.peer))
            guard !removed.isEmpty else { return false }
            contents.bonds.removeAll { removed.contains($0.peer) }
            for peer in removed { contents.gattClients[peer] = nil }
            return true
        }
    }

    /// Forgets every bond. Throws when that could not be persisted.
    public func removeAll() throws(SecurityStorageError) {
        try change { contents, removed in
            removed = Set(contents.bonds.map(\.peer))
            contents = Contents()
            return true
        }
    }

    // MARK: Told of removals

    /// Calls `observer` with the peers of every removal from now on, on the remover's
    /// thread before `remove` or `removeAll` returns (a write that failed included: the
    /// removal holds in memory), until `stopObservingRemovals` with the token returned.
    /// A host queues its server's forgetting of those peers on its loop this way
    /// (`BondSync`): a later look at the store would miss a bond removed and saved again
    /// meanwhile, and could come after the peer has reconnected.
    func observeRemovals(_ observer: @escaping RemovalObserver) -> Int {
        state.withLock { state in
            let token = state.nextObserverToken
            state.nextObserverToken += 1
            state.removalObservers[token] = observer
            return token
        }
    }

    func stopObservingRemovals(_ token: Int) {
        state.withLock { _ = $0.removalObservers.removeValue(forKey: token) }
    }

    // MARK: Written by the next flush

    /// Keeps a newer state of a bond this store holds (its sign counters moved), to be
    /// written by the next `flush()`. False, changing nothing, when the store has no
    /// bond with `bond.peer` (it was removed meanwhile: a late counter must not bring it
    /// back).
    @discardableResult
    public func stage(_ bond: Bond) -> Bool {
        stageChange(of: bond.peer) { contents in
            guard let index = contents.bonds.firstIndex(where: { $0.peer == bond.peer }) else { return false }
            guard contents.bonds[index] != bond else { return true }
            contents.bonds[index] = bond
            return true
        }
    }

    /// Keeps what the GATT server keeps for the bonded client `peer` (nil: nothing), to
    /// be written by the next `flush()`. False, changing nothing, when the store has no
    /// bond with `peer`.
    @discardableResult
    public func stageGATTClient(_ client: GATTBondedClient?, of peer: BluetoothAddress) -> Bool {
        stageChange(of: peer) { contents in
            guard contents.bonds.contains(where: { $0.peer == peer }) else { return false }
            contents.gattClients[peer] = client
            return true
        }
    }

    /// Whether staged changes wait for `flush()`. Lock-free: the host's loop asks every turn.
    public var hasUnsavedChanges: Bool { hasUnsaved.load(ordering: .acquiring) }

    /// How many changes were ever staged.
    var stagedChanges: Int { staged.load(ordering: .acquiring) }

    /// The peers whose staged changes wait for `flush()`.
    var unsavedPeers: Set<BluetoothAddress> { state.withLock { $0.unsaved } }

    /// Writes the staged changes, if any. When that fails they stay staged (and in
    /// memory), for the next flush to try again, and the call throws.
    public func flush() throws(SecurityStorageError) {
        guard hasUnsavedChanges else { return }
        try state.withLock { (state: inout State) throws(SecurityStorageError) in
            guard !state.unsaved.isEmpty else { return }
            try persist?(state.contents)
            state.unsaved = []
            hasUnsaved.store(false, ordering: .releasing)
        }
    }

    // MARK: Internals

    /// Applies `body` (false: nothing to stage) and marks `peer` unsaved when the
    /// contents changed.
    private func stageChange(of peer: BluetoothAddress, _ body: (inout Contents) -> Bool) -> Bool {
        state.withLock { state in
            var next = state.contents
            guard body(&next) else { return false }
            if next != state.contents {
                state.contents = next
                state.unsaved.insert(peer)
                staged.add(1, ordering: .releasing)
                hasUnsaved.store(true, ordering: .releasing)
            }
            return true
        }
    }

    /// Applies `body`, and persists the result (staged changes with it) when it says
    /// something changed. The peers whose bonds `body` removed (its second argument) are
    /// told to the removal observers after the lock (each takes a loop's lock to queue
    /// a job), before this returns or throws.
    @discardableResult
    private func change(_ body: (inout Contents, inout Set<BluetoothAddress>) -> Bool) throws(SecurityStorageError) -> Bool {
        var removed: Set<BluetoothAddress> = []
        var observers: [RemovalObserver] = []
        defer { for observer in observers { observer(removed) } }
        return try state.withLock { (state: inout State) throws(SecurityStorageError) -> Bool in
            guard body(&state.contents, &removed) else { return false }
            if !removed.isEmpty { observers = Array(state.removalObservers.values) }
            changes.add(1, ordering: .releasing)
            try persist?(state.contents)
            state.unsaved = []
            hasUnsaved.store(false, ordering: .releasing)
            return true
        }
    }
}
