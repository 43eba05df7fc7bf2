import SwiftATTHCI

/// The link's own parameters: connection interval, data length, PHY (Core 5.4 Vol 4
/// Part E §7.8.18, §7.8.33, §7.8.49). Each call sends the command and waits for the
/// event that reports the outcome; a controller that does not support the command
/// throws its status (Unknown HCI Command, Unsupported Feature).
extension Peer {
    /// Asks for new connection parameters and returns the ones the link now uses.
    public func updateConnectionParameters(_ parameters: LEConnectionParameters, timeout: Duration = .seconds(10)) async throws(CentralError) -> LEConnectionUpdateComplete {
        let handle = self.handle
        let update = try await send(LEConnectionUpdate(connectionHandle: handle, connectionParameters: parameters), awaiting: timeout) { event in
            if case let .leMeta(.connectionUpdateComplete(u)) = event, u.connectionHandle == handle { return u }
            return nil
        }
        guard let update else { throw .timedOut(timeout) }
        guard update.status.isSuccess else { throw .connectionFailed(update.status) }
        return update
    }

    /// Asks for longer link-layer packets (up to 251 octets) and returns the Data
    /// Length Change that follows, or `nil` when the lengths stay as they were (the
    /// controller reports a change only when there is one).
    public func setDataLength(txOctets: UInt16 = 251, txTime: UInt16 = 2120, timeout: Duration = .seconds(3)) async throws(CentralError) -> LEDataLengthChange? {
        let handle = self.handle
        return try await send(LESetDataLength(connectionHandle: handle, txOctets: txOctets, txTime: txTime), awaiting: timeout) { event in
            if case let .leMeta(.dataLengthChange(change)) = event, change.connectionHandle == handle { return change }
            return nil
        }
    }

    /// Asks for a PHY (2M, say) and returns the PHY Update Complete.
    public func setPHY(tx: LEPHYs, rx: LEPHYs, timeout: Duration = .seconds(10)) async throws(CentralError) -> LEPHYUpdateComplete {
        let handle = self.handle
        let update = try await send(LESetPHY(connectionHandle: handle, txPHYs: tx, rxPHYs: rx), awaiting: timeout) { event in
            if case let .leMeta(.phyUpdateComplete(u)) = event, u.connectionHandle == handle { return u }
            return nil
        }
        guard let update else { throw .timedOut(timeout) }
        guard update.status.isSuccess else { throw .connectionFailed(update.status) }
        return update
    }

    /// The PHYs the link uses now.
    public func readPHY() async throws(CentralError) -> LEReadPHY.ReturnParameters {
        do {
            return try await controller.send(LEReadPHY(connectionHandle: handle))
        } catch {
            throw .controller(error)
        }
    }

    /// Sends `command` and returns the first event `match` picks within `timeout`
    /// (`nil` when none came). Listens before sending, so the event cannot be missed.
    private func send<Command: HCICommand, Outcome: Sendable>(
        _ command: Command, awaiting timeout: Duration, _ match: @escaping @Sendable (HCIEvent) -> Outcome?
    ) async throws(CentralError) -> Outcome? {
        let events = controller.events()
        do {
            _ = try await controller.send(command)
        } catch {
            throw .controller(error)
        }
        return await Controller.firstEvent(in: events, within: timeout, match)
    }
}
