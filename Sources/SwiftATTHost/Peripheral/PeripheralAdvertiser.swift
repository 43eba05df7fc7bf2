import SwiftATTHCI
import Synchronization

/// Whether a `Peripheral` advertises again by itself once the controller has stopped.
///
/// A connectable advertisement ends when a central connects (Core 5.4 Vol 4 Part E
/// §7.8.9; an extended set is terminated, §7.7.65.18), so a peripheral that should stay
/// discoverable has to start it again: after every disconnection, and after a connection
/// while it may take more centrals.
public enum Readvertising: Sendable, Hashable {
    /// Advertising stays off once a connection stopped it, until `startAdvertising`.
    case off
    /// Advertising resumes whenever it is wanted, stopped, and fewer than `connections`
    /// centrals are connected. `upTo(connections: 1)` is one central at a time. A
    /// controller that cannot take another connection refuses the restart
    /// (`.advertisingFailed`); the next disconnection tries again.
    case upTo(connections: Int)

    /// Up to four centrals at once (what small controllers commonly manage).
    public static let `default` = Readvertising.upTo(connections: 4)
}

/// The peripheral's advertising: what the application wants and what the controller is
/// doing, kept together so that a restart never races a start or a stop.
///
/// Every operation runs after the ones enqueued before it (`serially`): the public
/// start and stop, and the restart each connection event asks for. A connection event
/// is applied in that same queue, so "the controller stopped advertising" is never
/// overwritten by a start that finished just before the central connected.
final class PeripheralAdvertiser: Sendable {
    /// What `startAdvertising` was given, to start again with.
    struct Advertisement: Sendable, Hashable {
        var data: [UInt8]
        var scanResponse: [UInt8]
        var interval: Duration
    }

    struct State {
        /// `nil` once stopped (or never started): nothing to resume.
        var wanted: Advertisement?
        var isAdvertising = false
        var connections: Set<UInt16> = []
        /// A hardware error struck and the controller is being restarted: nothing may be
        /// sent to it until the start-up sequence has run again.
        var recovering = false
        /// Advertising was on when the hardware error struck: it resumes after the restart
        /// whatever the policy (the policy governs restarts after connections).
        var advertisingBeforeFailure = false
        /// The last operation enqueued; the next one waits for it.
        var tail: Task<Void, Never>?
    }

    let controller: Controller
    let policy: Readvertising
    /// Tells the peripheral's listeners that advertising resumed or could not.
    let announce: @Sendable (PeripheralEvent) -> Void
    let state = Mutex(State())

    init(controller: Controller, policy: Readvertising, announce: @escaping @Sendable (PeripheralEvent) -> Void) {
        self.controller = controller
        self.policy = policy
        self.announce = announce
    }

    var isAdvertising: Bool { state.withLock { $0.isAdvertising } }

    /// Starts advertising `advertisement` (stopping the current advertisement first) and
    /// remembers it for restarts.
    func start(_ advertisement: Advertisement) async throws(ControllerError) {
        let controller = self.controller
        let result: Result<Void, ControllerError> = await serially { [self] in
            if state.withLock({ $0.isAdvertising }) {
                // Parameters may not change while advertising (Part E §7.8.5).
                try? await controller.stopAdvertising()
                state.withLock { $0.isAdvertising = false }
            }
            do throws(ControllerError) {
                try await controller.startAdvertising(
                    data: advertisement.data, scanResponse: advertisement.scanResponse, interval: advertisement.interval)
            } catch {
                return .failure(error)
            }
            state.withLock {
                $0.isAdvertising = true
                $0.wanted = advertisement
            }
            return .success(())
        }
        try result.get()
    }

    /// Stops advertising and forgets the advertisement: no restarts until `start`.
    func stop() async throws(ControllerError) {
        let controller = self.controller
        let result: Result<Void, ControllerError> = await serially { [self] in
            state.withLock { $0.wanted = nil }
            do throws(ControllerError) {
                try await controller.stopAdvertising()
            } catch {
                return .failure(error)
            }
            state.withLock { $0.isAdvertising = false }
            return .success(())
        }
        try result.get()
    }

    /// A central connected: the controller stopped advertising. Resumes if the policy
    /// allows another connection.
    func connected(_ handle: UInt16) {
        enqueue { [self] in
            state.withLock {
                $0.connections.insert(handle)
                $0.isAdvertising = false
            }
            await resumeIfWanted()
        }
    }

    /// A connection ended: resumes advertising if it is wanted and stopped.
    func disconnected(_ handle: UInt16) {
        enqueue { [self] in
            state.withLock { _ = $0.connections.remove(handle) }
            await resumeIfWanted()
        }
    }

    /// The controller failed and is being restarted (`ControllerRecovery`): its
    /// advertising and links are gone; advertising starts again once it is back.
    func recovery(_ recovery: ControllerRecovery) {
        enqueue { [self] in
            switch recovery {
            case .hardwareError:
                state.withLock { s in
                    s.advertisingBeforeFailure = s.advertisingBeforeFailure || s.isAdvertising
                    s.recovering = true
                    s.isAdvertising = false
                    s.connections.removeAll()
                }
            case .restarted:
                let wasAdvertising = state.withLock { s in
                    defer { s.recovering = false; s.advertisingBeforeFailure = false }
                    return s.advertisingBeforeFailure
                }
                await resumeIfWanted(evenIfPolicyIsOff: wasAdvertising)
            case .restartFailed:
                state.withLock { s in
                    s.recovering = false
                    s.advertisingBeforeFailure = false
                }
            }
        }
    }

    private func resumeIfWanted(evenIfPolicyIsOff: Bool = false) async {
        let wanted: Advertisement? = state.withLock { s in
            guard !s.recovering, !s.isAdvertising else { return nil }
            if case let .upTo(limit) = policy, s.connections.count < limit { return s.wanted }
            return evenIfPolicyIsOff ? s.wanted : nil
        }
        guard let wanted else { return }
        do throws(ControllerError) {
            try await controller.startAdvertising(data: wanted.data, scanResponse: wanted.scanResponse, interval: wanted.interval)
        } catch {
            announce(.advertisingFailed(error))
            return
        }
        state.withLock { $0.isAdvertising = true }
        announce(.advertisingResumed)
    }

    /// Runs `operation` once every operation enqueued before it has finished, and
    /// returns its result.
    private func serially<T: Sendable>(_ operation: @escaping @Sendable () async -> T) async -> T {
        let task: Task<T, Never> = state.withLock { s in
            let previous = s.tail
            let task = Task {
                await previous?.value
                return await operation()
            }
            s.tail = Task { _ = await task.value }
            return task
        }
        return await task.value
    }

    private func enqueue(_ operation: @escaping @Sendable () async -> Void) {
        state.withLock { s in
            let previous = s.tail
            s.tail = Task {
                await previous?.value
                await operation()
            }
        }
    }
}
