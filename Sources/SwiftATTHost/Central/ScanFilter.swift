import SwiftATTAdvertising
import SwiftATTCore

/// Which advertisers a scan reports, like CoreBluetooth's `scanForPeripherals(withServices:)`
/// plus the filters nRF Connect offers: service UUIDs (any of them, compared across UUID
/// widths), a name substring (case-insensitive), an address, a minimum RSSI. Empty
/// filters match everything.
public struct ScanFilter: Sendable, Hashable {
    /// Report advertisers listing any of these services (empty: any advertiser).
    public var services: [BluetoothUUID]
    /// Report advertisers whose local name contains this, case-insensitively.
    public var nameContains: String?
    /// Report only this advertiser.
    public var address: BluetoothAddress?
    /// Report advertisers heard at least this strongly, in dBm.
    public var minimumRSSI: Int8?

    /// A filter; with no arguments, it matches everything.
    public init(services: [BluetoothUUID] = [], nameContains: String? = nil, address: BluetoothAddress? = nil, minimumRSSI: Int8? = nil) {
        self.services = services
        self.nameContains = nameContains
        self.address = address
        self.minimumRSSI = minimumRSSI
    }

    /// Whether `device` (advertisement and scan response merged) passes every filter.
    public func matches(_ device: DiscoveredDevice) -> Bool {
        if let address, device.address != address { return false }
        if let minimumRSSI, device.rssi < minimumRSSI { return false }
        let data = device.data
        if !services.isEmpty {
            let advertised = data.serviceUUIDs + data.serviceData.map(\.uuid)
            guard services.contains(where: { advertised.contains($0) }) else { return false }
        }
        if let nameContains {
            guard let name = data.localName?.name, name.lowercased().contains(nameContains.lowercased()) else { return false }
        }
        return true
    }
}
