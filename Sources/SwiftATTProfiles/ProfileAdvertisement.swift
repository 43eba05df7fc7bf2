import SwiftATTAdvertising
import SwiftATTCore

/// What a profile's peripheral advertises: connectable legacy advertising data and a scan
/// response, 31 octets each (Core 5.4 Vol 3 Part C §11).
///
/// The advertising data holds Flags (LE General Discoverable, BR/EDR not supported), the
/// complete list of the profile's service UUIDs (each seed's central scans for its
/// service), the Appearance when given, and the local name — shortened when it does not
/// fit (a 128-bit service UUID leaves 8 octets), in which case the complete name goes in
/// the scan response.
public struct ProfileAdvertisement: Hashable, Sendable {
    /// The advertising data, at most 31 octets.
    public var data: [UInt8]
    /// The scan response, at most 31 octets; empty when everything fits in `data`.
    public var scanResponse: [UInt8]

    /// Advertising built elsewhere.
    public init(data: [UInt8], scanResponse: [UInt8] = []) {
        self.data = data
        self.scanResponse = scanResponse
    }

    /// Flags, `services`, the appearance when given and `name`, shortened in `data` when it does
    /// not fit and then whole in `scanResponse`.
    public init(name: String, services: [BluetoothUUID], appearance: UInt16? = nil) throws(ADEncodingError) {
        var builder = AdvertisingDataBuilder.legacy
        try builder.append(.flags(.leGeneralDiscoverableLEOnly))
        if !services.isEmpty {
            try builder.append(.serviceUUIDs(ServiceUUIDList(services)))
        }
        if let appearance {
            try builder.append(.appearance(Appearance(appearance)))
        }
        var response = AdvertisingDataBuilder.legacy
        if !name.isEmpty {
            let written = try builder.appendLocalName(name)
            if !written.isComplete { try response.appendLocalName(name) }
        }
        data = builder.bytes
        scanResponse = response.bytes
    }
}
