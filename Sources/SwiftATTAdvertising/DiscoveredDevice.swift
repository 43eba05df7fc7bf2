import SwiftATTCore

/// What a scanner knows about one advertiser: its latest advertising data and scan
/// response, merged, with the signal strength and time of the latest report.
///
/// Built by `AdvertisementMerger`. An active scanner receives a device's advertising PDU
/// (ADV_IND, ADV_SCAN_IND, or an extended advertisement) and, separately, its SCAN_RSP
/// (Core 5.4 Vol 6 Part B §2.3); the two payloads together describe the device. Each report
/// replaces the previous payload of its kind; in `data`, items of a type present in both
/// payloads come from the more recent one.
public struct DiscoveredDevice: Hashable, Sendable, CustomStringConvertible {
    /// The advertiser's address; public and random addresses are different devices.
    public let address: BluetoothAddress
    /// The device's identity address, when `address` is a resolvable private address
    /// that the IRK of a bonded device resolves (Core 5.4 Vol 6 Part B §1.3.2.3): the
    /// same device under any of its rotating addresses. Set by the scanner, not here.
    public var identity: BluetoothAddress?
    /// The latest advertising payload, as far as it decoded.
    public internal(set) var advertisement: AdvertisingData?
    /// The latest scan response payload, as far as it decoded.
    public internal(set) var scanResponse: AdvertisingData?
    /// RSSI of the latest report, in dBm, as the caller passed it.
    public internal(set) var rssi: Int8
    /// When the first report arrived.
    public internal(set) var firstSeen: ContinuousClock.Instant
    /// When the latest report arrived.
    public internal(set) var lastSeen: ContinuousClock.Instant
    /// Reports merged so far, advertisements and scan responses.
    public internal(set) var reportCount: Int
    /// Why the latest report did not decode completely (its valid prefix was kept), or
    /// `nil` when it decoded.
    public internal(set) var lastDecodingError: ADDecodingError?
    /// Whether the scan response arrived after the advertisement.
    var scanResponseIsNewer = false

    /// The two payloads merged: the advertisement's structures then the scan response's,
    /// dropping from the older payload every structure whose type the newer one carries.
    public var data: AdvertisingData {
        let older = (scanResponseIsNewer ? advertisement : scanResponse).map(Array.init) ?? []
        let newer = (scanResponseIsNewer ? scanResponse : advertisement).map(Array.init) ?? []
        let newerTypes = Set(newer.map(\.type))
        let kept = older.filter { !newerTypes.contains($0.type) }
        return scanResponseIsNewer ? AdvertisingData(kept + newer) : AdvertisingData(newer + kept)
    }

    /// The merged data's items.
    public var items: [ADItem] { data.items }

    /// `AA:BB:CC:DD:EE:FF -60 dBm "Polar H10" (3 items)`.
    public var description: String {
        let merged = data
        let name = merged.localName.map { " \"\($0.name)\"" } ?? ""
        let resolved = identity.map { " (identity \($0))" } ?? ""
        return "\(address)\(resolved) \(rssi) dBm\(name) (\(merged.count) items)"
    }
}
