import SwiftATT
import SwiftATTProfiles

/// Finds a heart-rate monitor, connects, reads where the sensor is worn and prints each
/// measurement it notifies — the central API used as README's quick tour ("A central")
/// shows.
enum HeartRateLog {
    enum Failure: Error, CustomStringConvertible {
        case noMonitor(Duration)
        case noMeasurement

        var description: String {
            switch self {
            case let .noMonitor(timeout): return "no heart-rate monitor advertised within \(timeout)"
            case .noMeasurement: return "the monitor has no Heart Rate Measurement characteristic (2A37)"
            }
        }
    }

    /// Logs `count` readings from the first monitor found through `transport`; returns
    /// their rates in beats per minute.
    static func run(transport: TransportSpecification, count: Int, scanTimeout: Duration = .seconds(10)) async throws -> [UInt16] {
        let central = try await Central.start(transport: transport)
        do {
            let rates = try await log(with: central, count: count, scanTimeout: scanTimeout)
            await central.close()
            return rates
        } catch {
            await central.close()
            throw error
        }
    }

    private static func log(with central: Central, count: Int, scanTimeout: Duration) async throws -> [UInt16] {
        let filter = ScanFilter(services: [HeartRateMonitor.heartRateService])
        guard let device = try await central.firstDevice(filter, within: scanTimeout) else {
            throw Failure.noMonitor(scanTimeout)
        }
        say("found \(device.data.localName?.name ?? "a monitor") at \(device.address)")
        let peer = try await central.connect(device.address)
        let database = try await peer.discoverDatabase()
        guard let measurement = database.characteristics(uuid: HeartRateMonitor.measurementUUID).first else {
            throw Failure.noMeasurement
        }
        if let location = database.characteristics(uuid: HeartRateMonitor.bodySensorLocationUUID).first {
            say("body sensor location: \(bodySensorLocation(try await peer.read(location)))")
        }
        var rates: [UInt16] = []
        for try await value in try await peer.notifications(of: measurement) {
            let reading = try HeartRateMeasurement(decoding: value.value)
            say("\(reading.beatsPerMinute) bpm")
            rates.append(reading.beatsPerMinute)
            if rates.count == count { break }
        }
        try await peer.disconnect()
        return rates
    }

    /// Body Sensor Location's values (Heart Rate Service 1.0 §3.2.1).
    static func bodySensorLocation(_ value: [UInt8]) -> String {
        let names = ["other", "chest", "wrist", "finger", "hand", "ear lobe", "foot"]
        guard let code = value.first else { return "(empty)" }
        return Int(code) < names.count ? names[Int(code)] : "reserved (\(code))"
    }
}
