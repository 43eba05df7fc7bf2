import SwiftATTCore

/// Eddystone-TLM: the beacon's telemetry, unencrypted (version 0x00).
///
/// Frame type 0x20, version, battery voltage (mV, 0 when not measured), temperature (signed
/// 8.8 fixed point °C, 0x8000 when not measured), the count of advertising PDUs sent and
/// the time since power-on in 0.1 s units; all big-endian, 14 octets in all. Encrypted TLM
/// (version 0x01) does not decode here.
public struct EddystoneTLM: Hashable, Sendable, CustomStringConvertible {
    /// The frame type: the service data's first octet.
    public static let frameType: UInt8 = 0x20
    static let length = 14
    /// The temperature value meaning "not supported".
    public static let temperatureNotSupported = Int16(bitPattern: 0x8000)

    /// Millivolts; 0 when the beacon does not measure it.
    public var batteryVoltage: UInt16
    /// Degrees Celsius × 256.
    public var temperatureRaw: Int16
    /// Advertising PDUs sent since power-on or reboot.
    public var advertisingCount: UInt32
    /// Time since power-on or reboot, in 0.1 s units.
    public var uptime: UInt32

    /// Telemetry of these values.
    public init(batteryVoltage: UInt16, temperatureRaw: Int16, advertisingCount: UInt32, uptime: UInt32) {
        self.batteryVoltage = batteryVoltage
        self.temperatureRaw = temperatureRaw
        self.advertisingCount = advertisingCount
        self.uptime = uptime
    }

    /// Decodes a frame, frame type first; `nil` unless it is 14 octets, version 0x00.
    public init?(frame: ArraySlice<UInt8>) {
        guard frame.count == Self.length, frame.first == Self.frameType, frame.byte(at: 1) == 0x00 else { return nil }
        func be(_ offset: Int, _ count: Int) -> UInt32 {
            frame.bytes(at: offset, count: count).reduce(0) { $0 << 8 | UInt32($1) }
        }
        batteryVoltage = UInt16(truncatingIfNeeded: be(2, 2))
        temperatureRaw = Int16(bitPattern: UInt16(truncatingIfNeeded: be(4, 2)))
        advertisingCount = be(6, 4)
        uptime = be(10, 4)
    }

    /// Degrees Celsius; `nil` when the beacon does not measure it.
    public var temperature: Double? {
        temperatureRaw == Self.temperatureNotSupported ? nil : Double(temperatureRaw) / 256
    }

    /// Seconds since power-on or reboot.
    public var uptimeSeconds: Double { Double(uptime) / 10 }

    /// The frame as the Service Data under 0xFEAA carries it, frame type first.
    public var frameBytes: [UInt8] {
        var out: [UInt8] = [Self.frameType, 0x00]
        func be(_ v: UInt32, _ count: Int) {
            for i in stride(from: count - 1, through: 0, by: -1) { out.append(UInt8(truncatingIfNeeded: v >> (8 * i))) }
        }
        be(UInt32(batteryVoltage), 2)
        be(UInt32(UInt16(bitPattern: temperatureRaw)), 2)
        be(advertisingCount, 4)
        be(uptime, 4)
        return out
    }

    /// `Eddystone-TLM battery 3000 mV, 23.5 °C, 1234 PDUs, up 4567.8 s`.
    public var description: String {
        let temp = temperature.map { "\(AdvertisingFormat.decimal($0)) °C" } ?? "temperature not measured"
        return "Eddystone-TLM battery \(batteryVoltage) mV, \(temp), \(advertisingCount) PDUs, up \(AdvertisingFormat.decimal(uptimeSeconds)) s"
    }
}
