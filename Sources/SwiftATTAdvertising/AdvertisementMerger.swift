import SwiftATTCore

/// Merges advertising reports into one `DiscoveredDevice` per address.
///
/// Pure: the scanner passes what an advertising report carries (address, payload, RSSI,
/// whether it is a scan response) and when it arrived; no HCI types, no clock reads. A
/// payload that does not decode completely still counts as a sighting: the structures
/// before the malformed one are kept and the error is recorded on the device.
public struct AdvertisementMerger: Sendable {
    /// Every device seen, by address.
    public private(set) var devices: [BluetoothAddress: DiscoveredDevice] = [:]

    /// A merger that has seen no device.
    public init() {}

    /// The device at `address`, if seen.
    public subscript(address: BluetoothAddress) -> DiscoveredDevice? { devices[address] }

    /// Merges one report and returns the device as it now stands.
    @discardableResult
    public mutating func merge(
        address: BluetoothAddress, payload: ArraySlice<UInt8>, rssi: Int8,
        isScanResponse: Bool, at time: ContinuousClock.Instant
    ) -> DiscoveredDevice {
        let (data, error) = AdvertisingData.parsingValidPrefix(payload)
        var device = devices[address] ?? DiscoveredDevice(
            address: address, advertisement: nil, scanResponse: nil, rssi: rssi,
            firstSeen: time, lastSeen: time, reportCount: 0, lastDecodingError: nil)
        if isScanResponse {
            device.scanResponse = data
        } else {
            device.advertisement = data
        }
        device.scanResponseIsNewer = isScanResponse
        device.rssi = rssi
        device.lastSeen = time
        device.reportCount += 1
        device.lastDecodingError = error
        devices[address] = device
        return device
    }

    /// Merges one report whose payload is an array.
    @discardableResult
    public mutating func merge(
        address: BluetoothAddress, payload: [UInt8], rssi: Int8,
        isScanResponse: Bool, at time: ContinuousClock.Instant
    ) -> DiscoveredDevice {
        merge(address: address, payload: payload[...], rssi: rssi, isScanResponse: isScanResponse, at: time)
    }

    /// Forgets devices last seen before `time` and returns them.
    @discardableResult
    public mutating func removeDevices(lastSeenBefore time: ContinuousClock.Instant) -> [DiscoveredDevice] {
        let stale = devices.values.filter { $0.lastSeen < time }
        for device in stale { devices[device.address] = nil }
        return stale
    }
}
