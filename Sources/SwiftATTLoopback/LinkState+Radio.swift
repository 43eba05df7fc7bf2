import SwiftATTCore
import SwiftATTHCI

/// What happens on the air between the emulated controllers: scanners hear
/// advertisers, initiators meet connectable advertisers, links end.
extension LinkState {
    /// RSSI every report carries: the link has no distance.
    static let rssi: Int8 = -40

    /// Controller `index` started advertising: every scanner hears it, and an initiator
    /// waiting for it connects.
    mutating func advertisingStarted(_ index: Int) {
        for scanner in controllers.indices where scanner != index && controllers[scanner].isScanning {
            report(index, to: scanner)
        }
        for initiator in controllers.indices where initiator != index && controllers[initiator].initiating != nil {
            initiate(initiator)
            if !controllers[index].isAdvertising { break }
        }
    }

    /// Controller `index` started scanning: it hears every advertiser.
    mutating func scanningStarted(_ index: Int) {
        for advertiser in controllers.indices where advertiser != index && controllers[advertiser].isAdvertising {
            report(advertiser, to: index)
        }
    }

    /// One advertising PDU, and for an active scanner of a scannable advertiser its scan
    /// response (Core 5.4 Vol 6 Part B §4.4.3): LE Advertising Reports.
    private mutating func report(_ advertiser: Int, to scanner: Int) {
        let a = controllers[advertiser]
        let eventType: LEAdvertisingReport.EventType
        switch a.advertisingParameters.advertisingType {
        case .advInd: eventType = .advInd
        case .advScanInd: eventType = .advScanInd
        case .advNonconnInd: eventType = .advNonconnInd
        default: return  // Directed advertising reaches only its target's initiator.
        }
        // A scanner resolving with its list names a listed advertiser by its identity.
        guard let (address, addressType) = controllers[scanner].hear(a.advertisingAddress).reported else { return }
        var reports = [LEAdvertisingReport.Report(eventType: eventType, address: address, addressType: addressType,
                                                  data: a.advertisingData[...], rssi: Self.rssi)]
        if controllers[scanner].scanParameters.scanType == .active, eventType != .advNonconnInd {
            reports.append(.init(eventType: .scanRsp, address: address, addressType: addressType,
                                 data: a.scanResponseData[...], rssi: Self.rssi))
        }
        send(LEAdvertisingReport(reports: reports), to: scanner)
    }

    /// Connects initiator `index` to its target if that target is advertising
    /// connectably now; otherwise the attempt stays pending.
    mutating func initiate(_ index: Int) {
        guard let request = controllers[index].initiating,
              let target = controllers.indices.first(where: {
                  $0 != index && controllers[$0].isConnectable && controllers[index].targets(request, at: controllers[$0].advertisingAddress)
              }) else { return }
        controllers[index].initiating = nil
        // Legacy advertising ends when a connection is made (Core 5.4 Vol 4 Part E §7.8.9).
        controllers[target].isAdvertising = false
        let handle = allocateHandle()
        let id = nextConnectionID
        nextConnectionID += 1
        statistics.connectionsMade += 1
        let parameters = request.connectionParameters
        connections[id] = LoopbackConnection(id: id, handle: handle, central: index, peripheral: target, parameters: parameters)
        controllers[index].handles[handle] = id
        controllers[target].handles[handle] = id
        let centralAddress = controllers[index].address(for: request.ownAddressType)
        connectionComplete(handle, role: .central, peer: controllers[target].advertisingAddress, parameters: parameters, to: index)
        connectionComplete(handle, role: .peripheral, peer: centralAddress, parameters: parameters, to: target)
    }

    /// A side's connection-complete event: LE Enhanced Connection Complete while its
    /// address resolution is on, naming a peer it resolved by its identity with the
    /// private address beside it (Core 5.4 Vol 4 Part E §7.7.65.10); the legacy event
    /// otherwise, as before LL Privacy.
    private mutating func connectionComplete(_ handle: UInt16, role: LERole, peer: BluetoothAddress,
                                             parameters: LEConnectionParameters, to index: Int) {
        guard controllers[index].addressResolution else {
            return send(LEConnectionComplete(connectionHandle: handle, role: role, peerAddress: peer,
                                             connectionInterval: parameters.intervalMax, peripheralLatency: parameters.maxLatency,
                                             supervisionTimeout: parameters.supervisionTimeout), to: index)
        }
        let heard = controllers[index].hear(peer)
        let named = heard.reported ?? (peer, LEAddressType(peer.kind))
        var peerPrivate = BluetoothAddress(0, kind: .random)
        if case let .resolved(_, privateAddress) = heard { peerPrivate = privateAddress }
        send(LEEnhancedConnectionComplete(connectionHandle: handle, role: role, peerAddress: named.address, peerAddressType: named.type,
                                          peerResolvablePrivateAddress: peerPrivate, connectionInterval: parameters.intervalMax,
                                          peripheralLatency: parameters.maxLatency, supervisionTimeout: parameters.supervisionTimeout),
             to: index)
    }

    /// A handle neither side uses (0x0001–0x0EFF, Core 5.4 Vol 4 Part E §5.4.2).
    private mutating func allocateHandle() -> UInt16 {
        let inUse = Set(connections.values.map(\.handle))
        repeat {
            nextHandle = nextHandle >= 0x0EFF ? 0x0001 : nextHandle + 1
        } while inUse.contains(nextHandle)
        return nextHandle
    }

    /// Ends connection `id`: Disconnection Complete on both sides, the initiator's
    /// reason 0x16 and the peer's the one sent (Core 5.4 Vol 4 Part E §7.1.6), both
    /// sides' buffers freed.
    mutating func disconnect(_ id: Int, initiator: Int, reason: HCIStatus) {
        guard let connection = end(id) else { return }
        send(DisconnectionComplete(connectionHandle: connection.handle, reason: .connectionTerminatedByLocalHost), to: initiator)
        send(DisconnectionComplete(connectionHandle: connection.handle, reason: reason), to: connection.other(than: initiator))
    }

    /// Ends connection `id` for a reason neither host chose (a MIC failure): both hear
    /// `reason`.
    mutating func drop(_ id: Int, reason: HCIStatus) {
        guard let connection = end(id) else { return }
        for side in [connection.central, connection.peripheral] {
            send(DisconnectionComplete(connectionHandle: connection.handle, reason: reason), to: side)
        }
    }

    /// Ends every link of controller `index` without telling its host (reset, or the
    /// host went away); the peers hear `peerReason`.
    mutating func dropLinks(of index: Int, peerReason: HCIStatus) {
        for id in Array(controllers[index].handles.values) {
            guard let connection = end(id) else { continue }
            send(DisconnectionComplete(connectionHandle: connection.handle, reason: peerReason), to: connection.other(than: index))
        }
    }

    /// Forgets a connection and frees the buffers its packets held.
    private mutating func end(_ id: Int) -> LoopbackConnection? {
        guard let connection = connections.removeValue(forKey: id) else { return nil }
        for side in [connection.central, connection.peripheral] {
            controllers[side].handles[connection.handle] = nil
            controllers[side].buffersInUse -= connection.inFlight(from: side)
        }
        return connection
    }

    /// New connection parameters, reported to both sides (§7.7.65.3).
    mutating func updateConnection(_ id: Int, to parameters: LEConnectionParameters) {
        guard var connection = connections[id] else { return }
        connection.parameters = parameters
        connections[id] = connection
        for side in [connection.central, connection.peripheral] {
            send(LEConnectionUpdateComplete(connectionHandle: connection.handle, connectionInterval: parameters.intervalMax,
                                            peripheralLatency: parameters.maxLatency, supervisionTimeout: parameters.supervisionTimeout), to: side)
        }
    }
}
