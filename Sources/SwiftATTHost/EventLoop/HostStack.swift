import SwiftATTCore
import SwiftATTGATT
import SwiftATTHCI
import SwiftATTL2CAP
import SwiftATTTransport

/// One host's protocol floors on its loop thread, and the thin scheduler that drives
/// them through each turn of the loop.
///
///     HCIConversation   commands and their credits, ACL credits, events, connections
///     L2CAPChannels     recombination, fixed-channel routing, LE signalling, and
///                       credit-based channels (CreditBasedChannels)
///     AttributeLinks    each link's bearer, GATT client and server, value streams
///     SecurityManager   pairing, encryption and bonds, beside the attribute links
///     BondSync          the bonds' moving parts (GATT state, sign counters) kept in
///                       the bond store, and the store's state taken up by the server
///
/// Calls go one way: a floor sends down through the one below it, and hands what it
/// received back up as its return value; only this scheduler passes a delivery from one
/// floor to the next (`deliver(_:)`). A job from the public API (`HostLoop.submit`) is
/// handed the stack and calls the floor it needs.
///
/// Loop-confined: only the `LoopRunner` thread that owns the host touches it.
final class HostStack {
    let hci: HCIConversation
    let l2cap: L2CAPChannels
    let attributes: AttributeLinks
    let security: SecurityManager
    /// The scans running on this controller (`Central.scan`), sharing one.
    let scanning: SharedScanning
    let bondSync: BondSync
    /// `l2cap.creditBased` and `hci.transport` again, as constants of the stack: read
    /// through `L2CAPChannels`' variable, or returned by a getter, each was retained and
    /// released around every use, and a turn of the loop uses them six times (callgrind,
    /// a command round trip: some 250 instructions of the host's 4,500).
    let creditBased: CreditBasedChannels
    let transport: any HCITransport
    /// Whether `transport` hands packets over in memory (`HCITransport.handsPacketsOverInMemory`):
    /// only then does the loop ask it before and after each `poll(2)`.
    let transportHandsOverInMemory: Bool

    /// Restarts the controller after a Hardware Error; installed by `Controller.start()`
    /// (a controller nobody started is left for its user to reset). Called on the loop
    /// once the host's HCI_Reset is answered, with its failure if it failed.
    var recovery: (@Sendable (_ code: UInt8, _ resetFailure: ControllerError?) -> Void)?
    /// `Controller.recoveries()`.
    var recoveryListeners = ListenerSet<ControllerRecovery>()
    /// Callers of `Controller.close()`, told once `shutdown` has closed the transport:
    /// a caller that reopens the same device (a serial port, a TCP controller that takes
    /// one host at a time, hci0's user channel) must find it free.
    var shutdownWaiters: [@Sendable () -> Void] = []

    /// When the batch being read arrived: the clock is read once per batch, not per
    /// frame (the bearers time the requests they send in answer from it). Unchecked:
    /// set once per read on the loop thread, which is the only one to touch a stack.
    @exclusivity(unchecked) private var receivedAt = MonotonicInstant.readBootClock()

    init(transport: any HCITransport) {
        hci = HCIConversation(transport: transport)
        l2cap = L2CAPChannels(hci: hci)
        attributes = AttributeLinks(l2cap: l2cap, hci: hci)
        security = SecurityManager(l2cap: l2cap, hci: hci)
        scanning = SharedScanning(hci: hci)
        bondSync = BondSync(store: security.bonds)
        creditBased = l2cap.creditBased
        self.transport = transport
        transportHandsOverInMemory = transport.handsPacketsOverInMemory
        // A peer that bonds during a connection keeps its GATT configuration from then on.
        security.bonded = { [unowned attributes, unowned l2cap] handle, identity in
            attributes.setBond(identity, on: handle)
            l2cap.creditBased.setKeyAvailable(on: handle)
        }
        attributes.signedWriteCheck = { [unowned security] handle, command in security.verifySignedWrite(command, on: handle) }
        bondSync.failed = { [unowned security] peers, error in
            for peer in peers.sorted(by: { $0.value < $1.value }) {
                let handle = security.handle(ofIdentity: peer) ?? SecurityEvent.noConnection
                security.listeners.yield(SecurityEvent(handle: handle, peer: peer, change: .bondStateNotSaved(error)))
            }
        }
    }

    var isRunning: Bool { hci.isRunning }
    var stopReason: ControllerError? { hci.stopReason }

    // MARK: Bonds and the GATT server

    /// The bonds this host keeps from now on: the Security Manager looks peers up in
    /// them, and the GATT server keeps state only for clients bonded there, taking up
    /// what the store kept for them.
    func useBonds(_ store: BondStore) {
        security.bonds = store
        bondSync.adopt(store, server: attributes.gattServer)
    }

    /// From now on a bond removed from the store (this one, or one adopted later) is
    /// forgotten by the GATT server in a job that `post` queues on this loop before the
    /// removal returns (`BondSync`).
    func observeBondRemovals(post: @escaping SecurityManager.Post) {
        bondSync.observeRemovals { removed in
            post { stack in stack.bondSync.forget(removed, in: stack.attributes.gattServer) }
        }
    }

    /// Serves `server` (a peripheral's database) from now on, with what the bond store
    /// kept for bonded clients.
    func install(_ server: GATTServer, updates: UpdateGate? = nil) {
        bondSync.load(into: server)
        attributes.install(server, updates: updates)
    }

    // MARK: A turn of the loop

    /// When the loop must call `expire` next. Asked on every turn, so it allocates
    /// nothing.
    var nextDeadline: MonotonicInstant? {
        let earliest: MonotonicInstant?
        switch (hci.nextDeadline, attributes.nextDeadline) {
        case let (command?, attribute?): earliest = min(command, attribute)
        case let (command, attribute): earliest = command ?? attribute
        }
        var others: MonotonicInstant?
        switch (security.nextDeadline, bondSync.nextDeadline) {
        case let (pairing?, bonds?): others = min(pairing, bonds)
        case let (pairing, bonds): others = pairing ?? bonds
        }
        if let channels = creditBased.nextDeadline { others = others.map { min($0, channels) } ?? channels }
        guard let others else { return earliest }
        return earliest.map { min($0, others) } ?? others
    }

    /// The earliest deadline (`nextDeadline`) as the loop saw it before it last blocked
    /// in `poll(2)`. A turn that began after that wait has nothing to expire unless this
    /// has passed: what the turn itself sets is timed from its start (`beginTurn`) plus
    /// a timeout, so it lies ahead. Four floors asked every turn were some 80
    /// instructions of a command round trip (callgrind). A turn after a wait that did
    /// not block (the loop did not look) expires every floor, as before.
    @exclusivity(unchecked) var deadlineBeforeWaiting: MonotonicInstant?

    /// The loop's turn began at `now` (its one clock read, right after `poll(2)`): what
    /// is read, sent and answered in the turn is timed from it.
    func beginTurn(at now: MonotonicInstant) {
        receivedAt = now
        hci.now = now
    }

    /// Reads what the transport has and takes it up the floors; values received for
    /// notification streams reach their consumers once the whole batch is in.
    func readTransport() {
        defer {
            attributes.flushNotifications()
            creditBased.flushStaged()
        }
        do throws(TransportError) {
            try transport.receive { packet in deliver(packet) }
        } catch {
            hci.fail(.transport(error))
        }
    }

    /// One packet, up the floors.
    @inline(__always)
    private func deliver(_ packet: HCIPacket) {
        switch hci.receive(packet) {
        case .handled:
            break
        case .aclData:
            guard let frame = l2cap.receive(packet.bytes) else { return }
            if frame.channel == L2CAPChannelIdentifier.attribute {
                attributes.receive(frame.payload, on: frame.connectionHandle, now: receivedAt)
            } else {
                security.receive(frame.payload, on: frame.connectionHandle, now: receivedAt)
            }
        case let .connected(connection):
            // The security floor first: it knows whether the peer is bonded, whose GATT
            // configuration (subscriptions, change-awareness) the server restores.
            security.connected(connection)
            let bond = security.bondedIdentity(of: connection.handle)
            attributes.attach(connection, bond: bond)
            if bond != nil { creditBased.setKeyAvailable(on: connection.handle) }
        case let .disconnected(handle, reason):
            l2cap.disconnected(handle, reason: reason)
            security.disconnected(handle)
            attributes.detach(handle, reason: reason)
            // A full link that went away no longer holds back `updateValue`.
            attributes.signalRoomIfWaiting()
        case .buffersFreed:
            attributes.drainWaitingCommands()
            creditBased.drain()
            attributes.signalRoomIfWaiting()
        case let .hardwareError(code):
            hardwareError(code)
        case let .longTermKeyRequest(request):
            security.longTermKeyRequested(request)
        case let .encryptionChanged(handle, status, enabled):
            if let level = security.encryptionChanged(handle, status: status, enabled: enabled, now: receivedAt) {
                attributes.setSecurity(level, on: handle)
                creditBased.setSecurity(level, on: handle)
            }
        }
    }

    /// Fires the deadlines that have passed: commands and ATT transactions time out.
    func expire(now: MonotonicInstant) {
        hci.expire(now: now)
        attributes.expire(now: now)
        security.expire(now: now)
        creditBased.expire(now: now)
    }

    /// The end of the turn: ACL queued during it goes out together, Write Commands that
    /// waited for that room follow, and a peripheral waiting for room hears whether it
    /// has some.
    func endTurn() {
        attributes.wakeOwedConsumers(idle: false)
        // What the turn changed in bonded clients' state (and sign counters) reaches the
        // bond store, and its file when `BondSync`'s interval allows.
        if hci.isRunning, bondSync.hasWork(serverChanged: attributes.hasBondedClientChanges) {
            bondSync.turn(server: attributes.gattServer, now: .readBootClock())
        }
        // Values applied this turn give their slots back even when they went to nobody
        // (no subscriber, so nothing to send).
        guard hci.isRunning, hci.hasQueuedACL || attributes.updatesApplied > 0 else { return }
        if hci.hasQueuedACL {
            hci.flushACL()
            attributes.drainWaitingCommands()
            if hci.hasQueuedACL { hci.flushACL() }
        }
        attributes.signalRoomIfWaiting()
    }

    /// The loop is about to sleep in `poll(2)`: consumers on other threads owed a
    /// wake-up get it now, so a link that went quiet delays no value.
    func beforeSleeping() {
        attributes.wakeOwedConsumers(idle: true)
    }

    /// Ends the host: every link's calls and listeners fail naming why, then every
    /// pending command and event stream, then the transport closes.
    func shutdown(_ reason: ControllerError) {
        // What bonded clients' state and the sign counters last changed to is written
        // while the listeners can still hear of a failure.
        bondSync.finish(server: attributes.gattServer)
        hci.fail(reason)
        let stopped = hci.stopReason ?? reason
        attributes.shutdown(.controllerStopped(stopped))
        security.shutdown(stopped)
        creditBased.shutdown(stopped)
        recoveryListeners.finishAll()
        recovery = nil
        hci.shutdown(stopped)
        let waiters = shutdownWaiters
        shutdownWaiters = []
        for waiter in waiters { waiter() }
    }
}
