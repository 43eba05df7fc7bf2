import SwiftATTCore
import SwiftATTHCI

/// One advertising or scan-response report, whichever event carried it: LE Advertising
/// Report (legacy) or LE Extended Advertising Report, which Bumble's controller sends
/// even for a legacy scan (BENCH.md quirk 5).
public struct AdvertisingReport: Sendable, Hashable {
    /// The advertiser's address, as the report gave it.
    public var address: BluetoothAddress
    /// The received signal strength, in dBm.
    public var rssi: Int8
    /// The AD structures, copied out of the event.
    public var data: [UInt8]
    /// A scan response (to an active scan's Scan Request) rather than an advertisement.
    public var isScanResponse: Bool
    /// The advertiser accepts connections.
    public var isConnectable: Bool
    /// Whether a legacy PDU carried it (always, for legacy reports).
    public var isLegacy: Bool
    /// The controller resolved the advertiser's private address with its resolving list:
    /// `address` is the identity address (an identity Address_Type, Core 5.4 Vol 4 Part
    /// E §7.7.65.2).
    public var isResolvedIdentity: Bool

    /// A report as an event carried it.
    public init(address: BluetoothAddress, rssi: Int8, data: [UInt8], isScanResponse: Bool, isConnectable: Bool, isLegacy: Bool,
                isResolvedIdentity: Bool = false) {
        self.address = address
        self.rssi = rssi
        self.data = data
        self.isScanResponse = isScanResponse
        self.isConnectable = isConnectable
        self.isLegacy = isLegacy
        self.isResolvedIdentity = isResolvedIdentity
    }

    /// The reports an event holds (none for other events). RSSI 127 means unavailable.
    public static func reports(in event: HCIEvent) -> [AdvertisingReport] {
        guard case let .leMeta(meta) = event else { return [] }
        switch meta {
        case let .advertisingReport(r):
            return r.reports.map { report in
                let type = report.eventType
                return AdvertisingReport(
                    address: report.address, rssi: report.rssi, data: Array(report.data),
                    isScanResponse: type == .scanRsp,
                    isConnectable: type == .advInd || type == .advDirectInd, isLegacy: true,
                    isResolvedIdentity: report.addressType.isResolvedIdentity)
            }
        case let .extendedAdvertisingReport(r):
            return r.reports.map { report in
                AdvertisingReport(
                    address: report.address, rssi: report.rssi, data: Array(report.data),
                    isScanResponse: report.eventType.contains(.scanResponse),
                    isConnectable: report.eventType.contains(.connectable),
                    isLegacy: report.eventType.contains(.legacy),
                    isResolvedIdentity: report.addressType.isResolvedIdentity)
            }
        default:
            return []
        }
    }
}

extension LEAddressType {
    /// An identity the controller resolved a private address to.
    var isResolvedIdentity: Bool { self == .publicIdentity || self == .randomIdentity }
}
