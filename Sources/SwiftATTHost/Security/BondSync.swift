import SwiftATTCore
import SwiftATTGATT

/// Keeps the parts of the bonds that move as the host runs in the host's `BondStore`:
/// what the GATT server keeps for each bonded client (subscriptions, Client Supported
/// Features, change-awareness, Service Changed owed; `GATTBondedClient`) and the sign
/// counters the Security Manager stages. And the other way: a server installed, or a
/// store swapped in (`configureSecurity(bonds:)`, a storage adopted), takes up what the
/// store kept; a bond removed from the store takes the server's state for the peer with
/// it (`GATTServer.forgetBond`). The store tells of a removal as it happens
/// (`observeRemovals`), and the host queues `forget` on its loop then: a job handed to
/// the loop after `remove` returned (the application's next call, a connection it
/// starts) finds the server's state gone. Comparing the store's bonds with the server's
/// at the end of a later turn instead would miss a bond removed and saved again in
/// between (an application restoring the keys), and would come after a reconnection
/// read in that turn.
///
/// How often that is, and so how often the store's file is written (each write is the
/// whole file, a sync of it and of its directory, some milliseconds on flash and a
/// little of its life):
/// - a client writes a Client Characteristic Configuration a few times per connection,
///   Client Supported Features once;
/// - it becomes change-aware, or is owed Service Changed, once per database change;
/// - it disconnects once per connection;
/// - but a sign counter moves with every Signed Write Command, which a device that
///   writes over an unencrypted link may send many times a second, and a client that
///   toggles a configuration (broken or hostile) can do so once per ATT round trip.
/// So a change is written at the end of the loop turn it was made in when the last
/// write is more than `writeInterval` old — a lone subscription or signed write is on
/// disk within the turn — and otherwise waits for the interval to end, together with
/// everything else that came meanwhile: at most one write per `writeInterval`, whatever
/// the peers do. Nothing is written when nothing changed: the store compares values.
/// A clean stop writes what waits (`finish`); a crash can lose the last interval's
/// changes, so after one a signed write replayed from that interval could be accepted
/// once. A failed write is reported (`failed`) and tried again with the next change,
/// and at the stop.
///
/// A floor-side helper of `HostStack`, on the loop thread; the writes block the loop
/// for their duration, as a bond's does when pairing completes.
final class BondSync {
    /// The least time between two writes of staged changes.
    static let writeInterval: Duration = .seconds(1)

    private(set) var store: BondStore
    /// What the store calls with its removals (`observeRemovals`), and its token there.
    private var removals: (observer: BondStore.RemovalObserver, token: Int)?
    private var lastWrite: MonotonicInstant?
    /// `store.stagedChanges` when a write failed: it is not tried again until that moves.
    private var failedAt: Int?
    /// When staged changes are written next (the end of the interval); nil when nothing
    /// waits for one. Asked every turn (unchecked, as `SecurityManager.nextDeadline`).
    @exclusivity(unchecked) private(set) var nextDeadline: MonotonicInstant?
    /// Told of a write that failed: the peers whose changes it held, and why.
    var failed: ((Set<BluetoothAddress>, SecurityStorageError) -> Void)?

    init(store: BondStore) {
        self.store = store
    }

    /// From now on the store calls `observer`, on the remover's thread, with the peers
    /// of each bond removed from it; the host's observer queues `forget` on its loop.
    /// It moves to a store adopted later, and is dropped when the host stops (`finish`).
    func observeRemovals(_ observer: @escaping BondStore.RemovalObserver) {
        if let removals { store.stopObservingRemovals(removals.token) }
        removals = (observer, store.observeRemovals(observer))
    }

    /// The bonds with `peers` were removed from the store: the server forgets what it
    /// kept for them. So does the store, if a turn between the removal and now staged
    /// the server's state for a peer whose bond was saved again meanwhile.
    func forget(_ peers: Set<BluetoothAddress>, in server: GATTServer?) {
        guard let server else { return }
        let kept = server.bondedIdentities
        for peer in peers where kept.contains(peer) {
            server.forgetBond(peer)
            store.stageGATTClient(nil, of: peer)
        }
    }

    /// Whether this turn has anything to do; a cheap look, made every turn.
    /// `serverChanged`: the GATT server has bonded clients' changes to stage
    /// (`AttributeLinks.hasBondedClientChanges`, looked at where the server is held: a
    /// server passed in here was retained and released every turn).
    func hasWork(serverChanged: Bool) -> Bool {
        serverChanged || (store.hasUnsavedChanges && failedAt != store.stagedChanges)
    }

    /// `hasWork(serverChanged:)` for `server` as it stands.
    func hasWork(server: GATTServer?) -> Bool {
        hasWork(serverChanged: server.map { !$0.bondedClientChanges.isEmpty } ?? false)
    }

    /// A turn: the server's changes are staged, and what is staged is written when the
    /// interval allows.
    func turn(server: GATTServer?, now: MonotonicInstant) {
        if let server { stageChanges(of: server) }
        guard store.hasUnsavedChanges, failedAt != store.stagedChanges else {
            nextDeadline = nil
            return
        }
        if let lastWrite, now < lastWrite + Self.writeInterval {
            nextDeadline = lastWrite + Self.writeInterval
            return
        }
        write(now: now)
    }

    /// `store` is the host's from now on: the server forgets the clients it has no bond
    /// with, and takes up what it kept for the others.
    func adopt(_ store: BondStore, server: GATTServer?) {
        guard store !== self.store else { return }
        if let removals {
            self.store.stopObservingRemovals(removals.token)
            self.removals = (removals.observer, store.observeRemovals(removals.observer))
        }
        self.store = store
        failedAt = nil
        lastWrite = nil
        nextDeadline = nil
        forgetClientsWithoutBond(in: server)
        if let server { load(into: server) }
    }

    /// `server` takes up what the store kept for its bonded clients. What it then keeps
    /// and the store does not — a client the store kept nothing for now, or (at the next
    /// turn) a state the server reconciled with another database — is staged.
    func load(into server: GATTServer) {
        let kept = store.contents.gattClients
        for (peer, client) in kept { server.restoreBondedClient(client, for: peer) }
        for identity in server.bondedIdentities where kept[identity] == nil {
            store.stageGATTClient(server.bondedClient(identity), of: identity)
        }
    }

    /// The host stops: the store no longer tells it of removals, the server's last
    /// changes are staged and everything staged is written now, whatever the interval.
    func finish(server: GATTServer?) {
        if let removals { store.stopObservingRemovals(removals.token) }
        removals = nil
        if let server { stageChanges(of: server) }
        nextDeadline = nil
        guard store.hasUnsavedChanges else { return }
        write(now: .readBootClock())
    }

    // MARK: Steps

    private func forgetClientsWithoutBond(in server: GATTServer?) {
        guard let server else { return }
        let bonded = Set(store.bonds.map(\.peer))
        for identity in server.bondedIdentities where !bonded.contains(identity) {
            server.forgetBond(identity)
        }
    }

    private func stageChanges(of server: GATTServer) {
        for identity in server.takeBondedClientChanges() {
            store.stageGATTClient(server.bondedClient(identity), of: identity)
        }
    }

    private func write(now: MonotonicInstant) {
        let peers = store.unsavedPeers
        let attempt = store.stagedChanges
        lastWrite = now
        nextDeadline = nil
        do {
            try store.flush()
            failedAt = nil
        } catch {
            failedAt = attempt
            failed?(peers, error)
        }
    }
}
