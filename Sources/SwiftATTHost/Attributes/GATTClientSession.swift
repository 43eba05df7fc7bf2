import SwiftATTPDU
import SwiftATTGATT

/// The client side of one link's ATT bearer, on the loop thread: the procedures waiting
/// their turn, the one running, who listens for notifications, and Write Commands
/// waiting for room in the controller's buffers.
///
/// One procedure runs at a time on each bearer: the bearer would interleave the requests
/// of several, but a procedure-at-a-time order is what a caller expects when it awaits
/// one call after another. With Enhanced ATT bearers, procedures the application asks
/// for at once run at once, one per bearer — except those that prepare writes, which
/// share the server's one prepare queue (Core 5.4 Vol 3 Part F §3.4.6) and so take
/// turns.
final class GATTClientSession {
    struct Running {
        let driver: any ProcedureDriver
        /// The bearer token of its outstanding request.
        var token: Int
    }

    struct Listener {
        let id: Int
        /// Only this value handle's values; `nil` for every value.
        let handle: UInt16?
        let staging: NotificationStaging
        var channel: NotificationChannel { staging.channel }

        func accepts(_ valueHandle: UInt16) -> Bool { handle == nil || handle == valueHandle }
    }

    struct WaitingCommand {
        let pdu: ATTPDU
        let completion: @Sendable (GATTClientError?) -> Void
    }

    var waiting: [any ProcedureDriver] = []
    /// The procedure with a request outstanding on the unenhanced bearer (each Enhanced
    /// bearer keeps its own, `EnhancedBearer.running`).
    var running: Running?
    /// In the order they were added. An array, not a dictionary keyed by id: a link has
    /// a listener or two, and each value walks them (a dictionary's walk retains its
    /// storage and copies each entry out).
    /// Walked per value, so not checked for exclusive access at run time: only the loop
    /// thread touches a session, and the array's own methods, the only code that runs
    /// while it is being mutated, cannot reach the session. (Staging a value mutates the
    /// listener's `NotificationStaging`, another object, not this array.)
    @exclusivity(unchecked) private(set) var listeners: [Listener] = []
    var commands: [WaitingCommand] = []

    /// Stages a value for its listeners, each a copy of its bytes (`NotificationBatch`);
    /// a listener's first value of the batch adds it to `staged`, which the loop flushes
    /// (and whose waiting consumers it wakes) once it has handled the whole batch it read.
    func deliver(handle: UInt16, value: UnsafeBufferPointer<UInt8>, isIndication: Bool, staged: inout [NotificationStaging]) {
        for index in listeners.indices where listeners[index].accepts(handle) {
            listeners[index].staging.stage(handle: handle, value: value, isIndication: isIndication, in: &staged)
        }
    }

    func running(on route: BearerRoute) -> Running? {
        switch route {
        case .unenhanced: return running
        case let .enhanced(enhanced): return enhanced.running
        }
    }

    func setRunning(_ new: Running?, on route: BearerRoute) {
        switch route {
        case .unenhanced: running = new
        case let .enhanced(enhanced): enhanced.running = new
        }
    }

    /// The first waiting procedure that may start now, and the free bearer it starts
    /// on: the unenhanced one first, then the Enhanced ones in order. Exchange MTU only
    /// runs on the unenhanced bearer; a procedure that queues prepared writes waits while
    /// another is running (the server's prepare queue is the client's, not the bearer's).
    func nextStart(enhanced: [EnhancedBearer]) -> (index: Int, route: BearerRoute)? {
        guard !waiting.isEmpty else { return nil }
        let unenhancedFree = running == nil
        let freeEnhanced = enhanced.first { $0.running == nil && !$0.bearer.isClosed }
        guard unenhancedFree || freeEnhanced != nil else { return nil }
        var preparing = running?.driver.placement == .preparesWrites
        for bearer in enhanced where bearer.running?.driver.placement == .preparesWrites { preparing = true }
        for (index, driver) in waiting.enumerated() {
            switch driver.placement {
            case .unenhanced:
                if unenhancedFree { return (index, .unenhanced) }
            case .preparesWrites where preparing:
                continue
            case .anyBearer, .preparesWrites:
                if unenhancedFree { return (index, .unenhanced) }
                if let freeEnhanced { return (index, .enhanced(freeEnhanced)) }
            }
        }
        return nil
    }

    /// Adds listener `id`, or replaces the one with that id.
    func setListener(_ listener: Listener) {
        if let index = listeners.firstIndex(where: { $0.id == listener.id }) {
            listeners[index] = listener
        } else {
            listeners.append(listener)
        }
    }

    func removeListener(_ id: Int) {
        listeners.removeAll { $0.id == id }
    }

    /// The link is gone: everything waiting fails with `error`, every listener ends with it.
    func close(with error: GATTClientError) {
        let drivers = (running.map { [$0.driver] } ?? []) + waiting
        running = nil
        waiting.removeAll()
        for driver in drivers { driver.fail(error) }
        for listener in listeners {
            // Values staged during this batch reach the consumer before the end does;
            // handing them over may take a consumer waiting on the loop out of the
            // channel, so it is woken here (the end finds nobody left to wake). One
            // waiting elsewhere is still in the channel, and the end wakes it.
            let wake = listener.staging.flush()
            listener.channel.finish(throwing: error)
            if case let .now(waiter) = wake { waiter.resume() }
        }
        listeners.removeAll()
        let parked = commands
        commands.removeAll()
        for command in parked { command.completion(error) }
    }
}
