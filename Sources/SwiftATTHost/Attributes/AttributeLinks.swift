import SwiftATTCore
import SwiftATTGATT
import SwiftATTHCI
import SwiftATTL2CAP
import SwiftATTPDU

/// The Attribute Protocol on one controller's connections: each link's ATT bearer, our
/// GATT client's procedures and listeners on it, and the GATT server every peer may
/// query (Core 5.4 Vol 3 Parts F and G).
///
/// The top floor of a host on its loop thread. It is handed the ATT frames L2CAP
/// received (`receive(_:on:)`), sends its PDUs down through `L2CAPChannels`, and the
/// GATT server hands its outputs back to it (responses, pushed values, subscription
/// changes) rather than calling in. What it tells the application goes out through the
/// listeners and channels it holds (`Peripheral.events()`, notification streams,
/// procedure completions).
///
/// Loop-confined. The state here that every notification goes through is
/// `@exclusivity(unchecked)`: a class's stored property is otherwise checked at run time
/// on each access. What those checks guard against, a second access to a property from
/// inside a mutation of it, cannot happen on these paths: only the loop thread touches
/// them, and the code run inside each mutation (an array's or a dictionary's own
/// methods) cannot reach this object. What calls out to other code as it changes (the
/// listener sets, whose streams' termination handlers run as they finish) keeps its
/// checks. (`AttributeLink`, `GATTClientSession` and `NotificationStaging` say the same of
/// their own unchecked state.)
final class AttributeLinks {
    let l2cap: L2CAPChannels
    /// For what ATT needs of HCI itself: how full a link's transmit queue is, and the
    /// Disconnect that ends a link whose bearer timed out.
    let hci: HCIConversation

    /// The links in the order they connected: walked every loop turn (deadlines, waiting
    /// Write Commands, crowding), which an array does without hashing.
    @exclusivity(unchecked) private(set) var links: [AttributeLink] = []
    /// `links` by connection handle as an array index (handles are 12 bits): the lookup
    /// each notification makes on the way in and out, without hashing.
    @exclusivity(unchecked) private var linksByHandle: [AttributeLink?] = []
    /// The GATT server every connection's peer may query (a peripheral installs its
    /// database; without one, requests are answered Request Not Supported).
    private(set) var gattServer: GATTServer?

    /// Whether the GATT server has bonded clients' changes for the bond store
    /// (`BondSync`), asked every turn.
    var hasBondedClientChanges: Bool { gattServer?.bondedClientChanges.isEmpty == false }
    /// Checks a Signed Write Command against the signer's bond (the security floor):
    /// whether its key is authenticated, or nil to drop it.
    var signedWriteCheck: ((UInt16, SignedWriteCommand) -> Bool?)?
    /// How long an ATT transaction may take on new links before it fails and the bearer
    /// closes (Core 5.4 Vol 3 Part F §3.3.3: 30 s; shorter in tests).
    var transactionTimeout: Duration = .seconds(30)

    /// `Peripheral.events()`.
    var peripheralListeners = ListenerSet<PeripheralEvent>()
    /// Sees every peripheral event as it happens, on the loop: how the advertiser learns
    /// of connections without a task woken for every event.
    var peripheralObserver: (@Sendable (PeripheralEvent) -> Void)?

    /// The bearer's actions for one received ATT PDU, kept between frames so that a
    /// batch allocates nothing.
    @exclusivity(unchecked) var receivedActions: [ATTBearer.Action] = []
    /// Bearer tokens: our requests and indications, each matched to its answer.
    var nextToken = 0
    /// Indications sent by token, for the event their confirmation raises.
    @exclusivity(unchecked) var indicationTokens: [Int: (handle: UInt16, valueHandle: UInt16)] = [:]

    /// Admits `Peripheral.updateValue` calls on their callers' threads
    /// (`AttributeLinks+Updates`); set with the GATT server a peripheral installs.
    private(set) var updateGate: UpdateGate?
    /// Values applied this turn that the gate has not been told of: it hears once per
    /// turn (`settleUpdates`), not once per value.
    @exclusivity(unchecked) var updatesApplied = 0
    /// ACL packets queued on one connection beyond which `updateValue` says "not now",
    /// and Write Commands wait.
    let transmitQueueLimit = 8

    /// The listeners holding values of the batch being read, flushed to their streams
    /// (and their waiting consumers woken) once it is done (`flushNotifications`).
    @exclusivity(unchecked) var stagedNotifications: [NotificationStaging] = []
    /// The consumers to wake, kept between batches so that waking them allocates nothing.
    @exclusivity(unchecked) var notificationWakes: [NotificationChannel.Waiter] = []
    /// Listeners whose consumers wait on other threads for values already queued: woken
    /// once the loop is about to sleep, or once they have waited `owedWakeTurns` turns or
    /// have `owedWakeValues` values, so that a busy loop wakes a consumer once per few
    /// batches rather than once per batch (`wakeOwedConsumers`).
    @exclusivity(unchecked) var owedWakes: [NotificationStaging] = []
    /// Turns since the oldest owed wake-up was owed.
    @exclusivity(unchecked) var owedWakeAge = 0

    init(l2cap: L2CAPChannels, hci: HCIConversation) {
        self.l2cap = l2cap
        self.hci = hci
    }

    // MARK: Links

    /// The link on connection `handle`, if it is up.
    @inline(__always)
    func link(_ handle: UInt16) -> AttributeLink? {
        let index = Int(handle)
        return index < linksByHandle.count ? linksByHandle[index] : nil
    }

    /// A new connection gets its bearer and is announced to the server and listeners.
    func attach(_ connection: ConnectionState, bond: BluetoothAddress? = nil) {
        let handle = connection.handle
        let link = AttributeLink(handle: handle, receiveMTU: AttributeLink.receiveMTU, transactionTimeout: transactionTimeout)
        if let i = links.firstIndex(where: { $0.handle == handle }) { links[i] = link } else { links.append(link) }
        let index = Int(handle)
        if linksByHandle.count <= index { linksByHandle.append(contentsOf: repeatElement(nil, count: index + 1 - linksByHandle.count)) }
        linksByHandle[index] = link
        link.bond = bond
        emit(.connected(handle, connection.peerAddress))
        if let server = gattServer { serve(link, from: server) }
    }

    /// The peer on `handle` bonded (its identity address): the server keeps its
    /// configuration across connections from now on.
    func setBond(_ identity: BluetoothAddress, on handle: UInt16) {
        guard let link = link(handle) else { return }
        link.bond = identity
        gattServer?.setBond(identity, for: link.connectionID)
    }

    /// `server` starts serving the peer on `link`: subscriptions a bonded peer had come
    /// back (and are announced), and what it is owed goes out (a Service Changed
    /// indication for a change made while it was away).
    private func serve(_ link: AttributeLink, from server: GATTServer) {
        let owed = server.connect(link.connectionID, mtu: link.bearer.mtu, bond: link.bond)
        for enhanced in link.enhanced { server.bearerOpened(enhanced.serverBearer, for: link.connectionID) }
        emitSubscriptionChanges(of: server)
        for pdu in owed { push(pdu, on: link) }
    }

    /// The link's encryption changed: the GATT server judges its permissions by the new
    /// level from the next request on.
    func setSecurity(_ level: GATTSecurityLevel, on handle: UInt16) {
        guard let link = link(handle) else { return }
        gattServer?.setSecurity(level, for: link.connectionID)
    }

    /// The connection is gone: everything pending on its bearer fails with the reason,
    /// the server forgets its state (keeping bonded peers'), listeners hear of it.
    func detach(_ handle: UInt16, reason: HCIStatus, cause: ATTBearerError.DisconnectReason? = nil) {
        guard let i = links.firstIndex(where: { $0.handle == handle }) else { return }
        let link = links.remove(at: i)
        linksByHandle[Int(handle)] = nil
        let cause = cause ?? ATTBearerError.DisconnectReason(code: reason.rawValue, name: reason.name)
        link.detaching = true
        perform(link.bearer.close(reason: cause), on: link)
        link.client.close(with: .disconnected(cause))
        let enhanced = link.enhanced
        link.enhanced = []
        for bearer in enhanced { perform(bearer.bearer.close(reason: cause), on: link, via: .enhanced(bearer)) }
        if let server = gattServer {
            server.disconnect(link.connectionID)
            emitSubscriptionChanges(of: server)
        }
        emit(.disconnected(handle, reason))
    }

    /// The controller failed: every link ends, in handle order, with `cause`.
    func detachAll(reason: HCIStatus, cause: ATTBearerError.DisconnectReason) {
        for handle in links.map(\.handle).sorted() { detach(handle, reason: reason, cause: cause) }
    }

    /// ATT_MTU of a link, or `nil` when it is not connected.
    func mtu(of handle: UInt16) -> Int? {
        link(handle)?.bearer.mtu
    }

    // MARK: Input

    /// Takes an ATT PDU the peer sent on connection `handle`, received in the batch read
    /// at `now`.
    @inline(__always)
    func receive(_ payload: ArraySlice<UInt8>, on handle: UInt16, now: MonotonicInstant) {
        guard let link = link(handle) else { return }
        // The streaming case first: a notification, decoded from the packet's bytes
        // borrowed, goes straight to the client.
        let pdu = payload.span
        if let notification = link.withBearer({ $0.notification(in: pdu) }) {
            // The value's bytes copied out of the packet's memory into the listeners'
            // batches; its array is made by the consumer (`NotificationBatch`).
            return pdu.extracting(notification.value).withUnsafeBufferPointer { value in
                link.client.deliver(handle: notification.handle, value: value, isIndication: false, staged: &stagedNotifications)
            }
        }
        // A buffer kept between frames (taken, so that a nested use gets its own).
        var actions = receivedActions
        receivedActions = []
        link.bearer.receive(payload, now: now, into: &actions)
        perform(actions, on: link)
        actions.removeAll(keepingCapacity: true)
        receivedActions = actions
    }

    // MARK: Deadlines

    /// The earliest deadline of any bearer (a request or indication timing out). Asked
    /// on every turn of the loop, so it allocates nothing.
    var nextDeadline: MonotonicInstant? {
        var earliest: MonotonicInstant?
        for link in links {
            if let deadline = link.withBearer({ $0.nextDeadline }), earliest.map({ deadline < $0 }) ?? true {
                earliest = deadline
            }
            for enhanced in link.enhanced {
                if let deadline = enhanced.bearer.nextDeadline, earliest.map({ deadline < $0 }) ?? true { earliest = deadline }
            }
        }
        return earliest
    }

    /// Fails the transactions whose deadline has passed.
    func expire(now: MonotonicInstant) {
        for link in links {
            if link.withBearer({ $0.nextDeadline }).map({ $0 <= now }) ?? false {
                perform(link.bearer.expire(now: now), on: link)
            }
            for enhanced in link.enhanced where enhanced.bearer.nextDeadline.map({ $0 <= now }) ?? false {
                perform(enhanced.bearer.expire(now: now), on: link, via: .enhanced(enhanced))
            }
        }
    }

    // MARK: The bearer's actions

    /// Carries out what the bearer `route` names asked for, in order.
    func perform(_ actions: [ATTBearer.Action], on link: AttributeLink, via route: BearerRoute = .unenhanced) {
        for action in actions {
            switch action {
            case let .send(pdu):
                switch route {
                case .unenhanced:
                    l2cap.send(channel: L2CAPChannelIdentifier.attribute, payload: EncodedBytes(pdu), handle: link.handle)
                case let .enhanced(enhanced):
                    _ = l2cap.creditBased.send(pdu, on: enhanced.key)
                }
            case let .serve(pdu):
                serve(pdu, on: link, via: route)
            case let .mtuChanged(mtu):
                // An Enhanced bearer's ATT_MTU is its channel's; the server's pushes and
                // the application's MTU are the unenhanced bearer's.
                guard case .unenhanced = route else { continue }
                gattServer?.setMTU(mtu, for: link.connectionID)
                emit(.mtuChanged(link.handle, mtu))
            case let .indicationConfirmed(token):
                if let sent = indicationTokens.removeValue(forKey: token) {
                    gattServer?.indicationConfirmed(valueHandle: sent.valueHandle, by: link.connectionID)
                    emit(.indicationConfirmed(sent.handle, sent.valueHandle))
                    // A confirmation makes room in the indication queue.
                    signalRoomIfWaiting()
                }
            case let .indicationFailed(token, _):
                indicationTokens[token] = nil
                signalRoomIfWaiting()
            case .closed:
                switch route {
                case .unenhanced:
                    // Core 5.4 Vol 3 Part F §3.3.3: after a transaction timeout no more ATT
                    // on this bearer; swift-att ends the link.
                    hci.send(Disconnect(connectionHandle: link.handle).packet, timeout: .seconds(3)) { _ in }
                case let .enhanced(enhanced):
                    // An Enhanced bearer that timed out is its channel: that one closes.
                    closeEnhanced(enhanced, on: link)
                }
            case .dropped:
                break
            case .response, .requestFailed, .notification, .indication:
                clientAction(action, on: link, via: route)
            }
        }
    }

    // MARK: The GATT server

    /// A request or command for our GATT server; requests get exactly one response.
    private func serve(_ pdu: ATTPDU, on link: AttributeLink, via route: BearerRoute) {
        if case let .signedWriteCommand(command) = pdu {
            // Written only when the signer's bond checks the signature; dropped silently
            // otherwise, as a command is (Part F §3.4.5.4).
            if let server = gattServer, let authenticated = signedWriteCheck?(link.handle, command) {
                server.signedWrite(command, from: link.connectionID, signerAuthenticated: authenticated)
                emitSubscriptionChanges(of: server)
            }
            return
        }
        let response: ATTPDU?
        if let server = gattServer {
            response = server.handle(pdu, from: link.connectionID, bearer: route.serverBearer, mtu: link.mtu(route))
            emitSubscriptionChanges(of: server)
        } else {
            response = .errorResponse(ErrorResponse(requestOpcode: pdu.opcode, handle: 0, errorCode: .requestNotSupported))
        }
        guard pdu.opcode.kind == .request, let response else { return }
        do throws(ATTBearerError) {
            perform(try link.withBearer(route) { bearer throws(ATTBearerError) in try bearer.respond(response) }, on: link, via: route)
        } catch {
            // The bearer refused (closed, or the response exceeds ATT_MTU): nothing to send.
        }
    }

    /// Sends a notification now, or queues an indication behind the one awaiting
    /// confirmation. False when the bearer refused it (closed, queue full, too long).
    @discardableResult
    func push(_ pdu: ATTPDU, on link: AttributeLink) -> Bool {
        do throws(ATTBearerError) {
            if case let .handleValueIndication(indication) = pdu {
                nextToken += 1
                let actions = try link.bearer.indicate(indication, token: nextToken, now: .readBootClock())
                // Only an accepted indication is owed a confirmation: a refused one
                // (queue full) must not leave its token behind.
                indicationTokens[nextToken] = (link.handle, indication.handle)
                perform(actions, on: link)
            } else {
                // What `bearer.send` checks, then the PDU goes straight into its packet.
                try link.withBearer { bearer throws(ATTBearerError) in try bearer.validateSend(pdu) }
                l2cap.send(channel: L2CAPChannelIdentifier.attribute, payload: pdu, handle: link.handle)
            }
            return true
        } catch {
            return false
        }
    }

    /// Installs the database a peripheral serves (and the gate its `updateValue` calls
    /// pass); connections already up start over with it.
    func install(_ server: GATTServer, updates: UpdateGate? = nil) {
        if let updates { updateGate = updates }
        gattServer = server
        for link in links { serve(link, from: server) }
    }

    /// Serves `database` from now on: connected clients get a Service Changed indication
    /// for `changedRange` (those that subscribed to it), bonded clients that are away get
    /// theirs when they come back, and subscriptions the new database cannot keep end.
    func replaceDatabase(_ database: GATTDatabase, changedRange: ClosedRange<UInt16>) {
        guard let server = gattServer else { return }
        let owed = server.replaceDatabase(database, changedRange: changedRange)
        emitSubscriptionChanges(of: server)
        for (id, pdu) in owed {
            guard let link = links.first(where: { $0.connectionID == id }) else { continue }
            push(pdu, on: link)
        }
    }

    /// `Peripheral.updateValues`: the server's PDUs for several values, each to its link.
    func update(_ updates: [(characteristic: GATTCharacteristic, value: [UInt8])]) {
        guard let server = gattServer else { return }
        for (id, pdu) in server.update(updates) {
            guard let link = link(id.rawValue) else { continue }
            push(pdu, on: link)
        }
    }

    /// Tells the application of the subscription changes the server made.
    private func emitSubscriptionChanges(of server: GATTServer) {
        guard !server.subscriptionChanges.isEmpty else { return }
        for change in server.takeSubscriptionChanges() { emit(.subscriptionChanged(change)) }
    }

    func emit(_ event: PeripheralEvent) {
        peripheralObserver?(event)
        peripheralListeners.yield(event)
    }

    // MARK: Shutdown

    /// The host stopped: values admitted and not applied give their slots back, every
    /// link's procedures and listeners fail with `cause`, the peripheral's listeners end.
    func shutdown(_ cause: ATTBearerError.DisconnectReason) {
        if updatesApplied > 0 { settleUpdates(applied: 0, congested: false) }
        for link in links { link.client.close(with: .disconnected(cause)) }
        peripheralListeners.finishAll()
        peripheralObserver = nil
    }
}
