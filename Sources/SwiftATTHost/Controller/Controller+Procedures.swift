import SwiftATTCore
import SwiftATTHCI

/// Advertising, scanning and connecting with the commands the controller supports:
/// extended ones where its supported-commands bitmap lists them (Core 5.4 Vol 4 Part E
/// §3.1.1 forbids mixing), legacy otherwise. All use a random address (BENCH.md quirk 2:
/// ACL on a public-address link is dropped by Bumble): the static one set by `start()`,
/// or with privacy on a resolvable private address; each start runs `prepareRadioStart()`
/// first (the resolving list and our private address).
extension Controller {
    /// The advertising set swift-att uses when advertising with extended commands.
    static let advertisingHandle: UInt8 = 0

    private func startedInfo(_ what: String) throws(ControllerError) -> ControllerInfo {
        guard let info else { throw .notStarted(what) }
        return info
    }

    /// `milliseconds` in units of 0.625 ms, clamped to the legacy range 20 ms–10.24 s.
    static func advertisingUnits(_ interval: Duration) -> UInt16 {
        let ms = Double(interval.components.seconds) * 1000 + Double(interval.components.attoseconds) / 1e15
        return UInt16(clamping: Int((ms / 0.625).rounded()).clamped(to: 0x20...0x4000))
    }

    /// Starts connectable, scannable undirected advertising with `data` (≤ 31 bytes) and
    /// an optional scan response, at `interval`.
    public func startAdvertising(data: [UInt8], scanResponse: [UInt8] = [], interval: Duration = .milliseconds(100)) async throws(ControllerError) {
        let info = try startedInfo("startAdvertising")
        let own = await prepareRadioStart() ?? info.randomAddress
        let units = Self.advertisingUnits(interval)
        if info.usesExtendedAdvertising {
            _ = try await send(LESetExtendedAdvertisingParameters(
                advertisingHandle: Self.advertisingHandle, advertisingEventProperties: .legacyADVIND,
                primaryAdvertisingIntervalMin: UInt32(units), primaryAdvertisingIntervalMax: UInt32(units)))
            _ = try await send(LESetAdvertisingSetRandomAddress(advertisingHandle: Self.advertisingHandle, randomAddress: own))
            _ = try await send(LESetExtendedAdvertisingData(advertisingHandle: Self.advertisingHandle, advertisingData: data[...]))
            _ = try await send(LESetExtendedScanResponseData(advertisingHandle: Self.advertisingHandle, scanResponseData: scanResponse[...]))
            _ = try await send(LESetExtendedAdvertisingEnable(enable: true, sets: [.init(advertisingHandle: Self.advertisingHandle)]))
        } else {
            _ = try await send(LESetAdvertisingParameters(advertisingIntervalMin: units, advertisingIntervalMax: units))
            _ = try await send(LESetAdvertisingData(advertisingData: data[...]))
            _ = try await send(LESetScanResponseData(scanResponseData: scanResponse[...]))
            _ = try await send(LESetAdvertisingEnable(advertisingEnable: true))
        }
    }

    /// Stops advertising (legacy or extended, as `startAdvertising` began it).
    public func stopAdvertising() async throws(ControllerError) {
        let info = try startedInfo("stopAdvertising")
        if info.usesExtendedAdvertising {
            _ = try await send(LESetExtendedAdvertisingEnable(enable: false, sets: [.init(advertisingHandle: Self.advertisingHandle)]))
        } else {
            _ = try await send(LESetAdvertisingEnable(advertisingEnable: false))
        }
    }

    /// Starts scanning on the 1M PHY. `interval`/`window` in units of 0.625 ms.
    public func startScanning(active: Bool = true, interval: UInt16 = 0x60, window: UInt16 = 0x30, filterDuplicates: Bool = false) async throws(ControllerError) {
        let info = try startedInfo("startScanning")
        _ = await prepareRadioStart()
        let type: LEScanType = active ? .active : .passive
        if info.usesExtendedScanning {
            _ = try await send(LESetExtendedScanParameters(le1M: .init(scanType: type, scanInterval: interval, scanWindow: window)))
            _ = try await send(LESetExtendedScanEnable(enable: true, filterDuplicates: filterDuplicates ? .enabled : .disabled))
        } else {
            _ = try await send(LESetScanParameters(scanType: type, scanInterval: interval, scanWindow: window))
            _ = try await send(LESetScanEnable(scanEnable: true, filterDuplicates: filterDuplicates))
        }
    }

    /// The commands that start and stop scanning with these parameters, for a caller that
    /// must order them with other scanners (`Central.scan`).
    func scanningCommands(active: Bool, interval: UInt16, window: UInt16) throws(ControllerError) -> (start: [HCICommandPacket], stop: [HCICommandPacket]) {
        let info = try startedInfo("scan")
        let type: LEScanType = active ? .active : .passive
        if info.usesExtendedScanning {
            return ([LESetExtendedScanParameters(le1M: .init(scanType: type, scanInterval: interval, scanWindow: window)).packet,
                     LESetExtendedScanEnable(enable: true).packet],
                    [LESetExtendedScanEnable(enable: false).packet])
        }
        return ([LESetScanParameters(scanType: type, scanInterval: interval, scanWindow: window).packet,
                 LESetScanEnable(scanEnable: true).packet],
                [LESetScanEnable(scanEnable: false).packet])
    }

    /// Stops scanning (legacy or extended, as the scan began).
    public func stopScanning() async throws(ControllerError) {
        let info = try startedInfo("stopScanning")
        if info.usesExtendedScanning {
            _ = try await send(LESetExtendedScanEnable(enable: false))
        } else {
            _ = try await send(LESetScanEnable(scanEnable: false))
        }
    }

    /// Asks the controller to connect to `peer`; the outcome arrives as an LE
    /// (Enhanced) Connection Complete event. Parameters in HCI units (1.25 ms, 10 ms).
    /// A peer in the controller's resolving list is named by its identity address type
    /// (§7.8.12), so the controller finds it under whichever private address it uses —
    /// the address a resolving scan reported.
    public func createConnection(to peer: BluetoothAddress, parameters: LEConnectionParameters = .init(
        intervalMin: 24, intervalMax: 40, maxLatency: 0, supervisionTimeout: 400)) async throws(ControllerError) {
        let info = try startedInfo("createConnection")
        _ = await prepareRadioStart()
        let listed = resolvingListEntries.contains { $0.peerIdentity == peer }
        let type: LEAddressType? = listed ? (peer.kind == .public ? .publicIdentity : .randomIdentity) : nil
        if info.usesExtendedCreateConnection {
            _ = try await send(LEExtendedCreateConnection(
                peerAddress: peer, peerAddressType: type,
                le1M: .init(scanInterval: 0x60, scanWindow: 0x60, connectionParameters: parameters)))
        } else {
            _ = try await send(LECreateConnection(scanInterval: 0x60, scanWindow: 0x60, peerAddress: peer, peerAddressType: type,
                                                  connectionParameters: parameters))
        }
    }

    /// Cancels a connection attempt still in progress (LE Create Connection Cancel).
    public func cancelConnection() async throws(ControllerError) {
        _ = try await send(LECreateConnectionCancel())
    }
}

extension Comparable {
    func clamped(to range: ClosedRange<Self>) -> Self { min(max(self, range.lowerBound), range.upperBound) }
}
