import SwiftATTCore
import SwiftATTGATT
import SwiftATTPDU

/// The GATT client on the loop: procedures run one at a time per bearer — on a link with
/// Enhanced ATT bearers, as many at once as it has bearers — notifications reach their
/// listeners, Write Commands wait for buffer room.
extension AttributeLinks {
    /// The error for work on a link that is not (or no longer) there.
    static let notConnected = GATTClientError.disconnected(.init(code: 0x02, name: "Unknown Connection Identifier"))

    /// Queues `driver` on the link; it starts when the procedures before it have finished.
    func run(_ driver: any ProcedureDriver, on handle: UInt16) {
        guard let link = link(handle) else { return driver.fail(Self.notConnected) }
        link.client.waiting.append(driver)
        advanceClient(on: link)
    }

    /// Cancels the procedure `id`: a waiting one ends at once; the running one winds down
    /// when its outstanding request is answered (see `GATTProcedure.cancel()`).
    func cancelProcedure(_ id: Int, on handle: UInt16) {
        guard let link = link(handle) else { return }
        if let index = link.client.waiting.firstIndex(where: { $0.id == id }) {
            let driver = link.client.waiting.remove(at: index)
            _ = driver.cancel()
        } else if let route = route(running: id, on: link), let running = link.client.running(on: route) {
            if let next = running.driver.cancel() {
                link.client.setRunning(nil, on: route)
                sendClientRequest(next, for: running.driver, on: link, via: route)
            }
            if running.driver.isFinished, link.client.running(on: route)?.driver === running.driver {
                link.client.setRunning(nil, on: route)
            }
            advanceClient(on: link)
        }
    }

    /// The bearer procedure `id` has its request outstanding on.
    private func route(running id: Int, on link: AttributeLink) -> BearerRoute? {
        if link.client.running?.driver.id == id { return .unenhanced }
        return link.enhanced.first { $0.running?.driver.id == id }.map(BearerRoute.enhanced)
    }

    /// Starts waiting procedures, in order, while a bearer they may run on is free.
    func advanceClient(on link: AttributeLink) {
        guard !link.detaching else { return }
        while let (index, route) = link.client.nextStart(enhanced: link.enhanced) {
            let driver = link.client.waiting.remove(at: index)
            if let request = driver.start(mtu: link.mtu(route)) {
                sendClientRequest(request, for: driver, on: link, via: route)
            }
        }
    }

    /// Hands a procedure's request to the bearer (Exchange MTU to the bearer's own call).
    private func sendClientRequest(_ request: ATTPDU, for driver: any ProcedureDriver, on link: AttributeLink,
                                   via route: BearerRoute) {
        nextToken += 1
        let token = nextToken
        do throws(ATTBearerError) {
            let now = MonotonicInstant.readBootClock()
            let actions = try link.withBearer(route) { bearer throws(ATTBearerError) in
                request.opcode == .exchangeMTURequest
                    ? try bearer.exchangeMTU(token: token, now: now)
                    : try bearer.request(request, token: token, now: now)
            }
            link.client.setRunning(GATTClientSession.Running(driver: driver, token: token), on: route)
            perform(actions, on: link, via: route)
        } catch {
            // Its Execute Write (cancel), if it asks for one, is two octets: it fits any
            // ATT_MTU, and a closed bearer refuses it too, which ends the procedure.
            if let next = driver.refused(GATTClientError(error)) {
                sendClientRequest(next, for: driver, on: link, via: route)
            }
        }
    }

    /// What a bearer hands the client: answers, failures and pushed values.
    func clientAction(_ action: ATTBearer.Action, on link: AttributeLink, via route: BearerRoute = .unenhanced) {
        switch action {
        case let .response(token, pdu):
            guard let running = link.client.running(on: route), running.token == token else { return }
            link.client.setRunning(nil, on: route)
            if let next = running.driver.receive(pdu) {
                sendClientRequest(next, for: running.driver, on: link, via: route)
            }
            advanceClient(on: link)
        case let .requestFailed(token, error):
            guard let running = link.client.running(on: route), running.token == token else { return }
            link.client.setRunning(nil, on: route)
            running.driver.fail(GATTClientError(error))
            advanceClient(on: link)
        case let .notification(handle, value):
            value.withUnsafeBufferPointer { link.client.deliver(handle: handle, value: $0, isIndication: false, staged: &stagedNotifications) }
        case let .indication(handle, value):
            value.withUnsafeBufferPointer { link.client.deliver(handle: handle, value: $0, isIndication: true, staged: &stagedNotifications) }
        default:
            break
        }
    }

    /// Sends a Write Command (or Signed Write Command) now if the link's transmit queue
    /// has room, else once Number Of Completed Packets frees some: the back-pressure of
    /// CoreBluetooth's `canSendWriteWithoutResponse`. Commands keep their order.
    func sendClientCommand(_ pdu: ATTPDU, on handle: UInt16, completion: @escaping @Sendable (GATTClientError?) -> Void) {
        guard let link = link(handle) else { return completion(Self.notConnected) }
        link.client.commands.append(.init(pdu: pdu, completion: completion))
        drainCommands(on: link)
    }

    /// Sends the Write Commands every link has waiting, as far as there is room.
    func drainWaitingCommands() {
        for link in links where !link.client.commands.isEmpty { drainCommands(on: link) }
    }

    /// Sends waiting Write Commands while the link's transmit queue has room.
    func drainCommands(on link: AttributeLink) {
        while let command = link.client.commands.first,
              hci.queuedACLCount(on: link.handle) < transmitQueueLimit {
            link.client.commands.removeFirst()
            do throws(ATTBearerError) {
                perform(try link.bearer.send(command.pdu), on: link)
                command.completion(nil)
            } catch {
                command.completion(GATTClientError(error))
            }
        }
    }

    /// Registers listener `id` for pushed values (of one value handle, or all). On a link
    /// that is gone the stream ends at once with `disconnected`.
    func addNotificationListener(
        _ id: Int, on handle: UInt16, valueHandle: UInt16?, _ channel: NotificationChannel
    ) {
        guard let link = link(handle) else { return channel.finish(throwing: Self.notConnected) }
        link.client.setListener(.init(id: id, handle: valueHandle, staging: NotificationStaging(channel: channel)))
    }

    func removeNotificationListener(_ id: Int, on handle: UInt16) {
        link(handle)?.client.removeListener(id)
    }

    /// Hands each listener the values staged for it during the batch just handled,
    /// then resumes the consumers that were waiting for some.
    ///
    /// The look for nothing staged is inlined into the loop's turn, which asks after
    /// every read: a call to learn that was a tenth of the turn's own checks (callgrind).
    @inline(__always)
    func flushNotifications() {
        if !stagedNotifications.isEmpty { flushStagedNotifications() }
    }

    private func flushStagedNotifications() {
        for staging in stagedNotifications {
            switch staging.flush() {
            case .none: break
            case let .now(waiter): notificationWakes.append(waiter)
            case .owed:
                if !staging.owesWake {
                    staging.owesWake = true
                    owedWakes.append(staging)
                }
            }
        }
        stagedNotifications.removeAll(keepingCapacity: true)
        for waiter in notificationWakes { waiter.resume() }
        notificationWakes.removeAll(keepingCapacity: true)
    }

    /// A consumer waiting on another thread is woken once the loop is about to sleep
    /// (`idle`), or after this many turns of a busy loop…
    static let owedWakeTurns = 4
    /// …or once this many values wait for it.
    static let owedWakeValues = 64

    /// Wakes the consumers owed a wake-up (`flushNotifications`) when the loop is about
    /// to sleep, or when the oldest has waited `owedWakeTurns` turns, or a consumer's
    /// values reach `owedWakeValues`. Waking a task on Swift's pool from the loop costs
    /// a thread wake-up (a third of the CPU time of a stream to eight such consumers
    /// when it was paid every turn); a busy loop pays it once per few turns, and a loop
    /// about to sleep pays it at once, so an idle link adds no delay.
    /// Its look for nobody owed is inlined into the turn, as `flushNotifications`' is.
    @inline(__always)
    func wakeOwedConsumers(idle: Bool) {
        if !owedWakes.isEmpty { wakeSomeOwedConsumers(idle: idle) }
    }

    private func wakeSomeOwedConsumers(idle: Bool) {
        owedWakeAge += 1
        if idle || owedWakeAge >= Self.owedWakeTurns {
            for staging in owedWakes {
                staging.owesWake = false
                staging.channel.wakeOwed()
            }
            owedWakes.removeAll(keepingCapacity: true)
            owedWakeAge = 0
            return
        }
        var index = 0
        while index < owedWakes.count {
            let staging = owedWakes[index]
            if staging.channel.bufferedCount >= Self.owedWakeValues {
                staging.owesWake = false
                staging.channel.wakeOwed()
                owedWakes.swapAt(index, owedWakes.count - 1)
                owedWakes.removeLast()
            } else {
                index += 1
            }
        }
        if owedWakes.isEmpty { owedWakeAge = 0 }
    }
}
