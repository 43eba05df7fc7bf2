import SwiftATTJSON
import SwiftATTCore
import SwiftATTGATT
import SwiftATTHost
import SwiftATTProfiles

/// The seeds' central flows as ready commands.
struct CentralSeedFlows {
    let actions: CentralActions
    var report: EventReport { actions.report }
    var peer: Peer { actions.peer }

    /// The characteristic `uuid` in `service`, or a clear error that the device lacks it.
    func characteristic(_ uuid: BluetoothUUID, in service: BluetoothUUID, of database: GATTClientDatabase) throws(CommandError) -> GATTClient.Characteristic {
        guard let found = database.services(uuid: service).lazy.compactMap({ database.characteristics(uuid: uuid, in: $0).first }).first else {
            throw .peer("the device has no \(CentralTree.label(uuid)) in service \(CentralTree.label(service))")
        }
        return found
    }

    /// Seed 002: a heart-rate monitor. Writes 0x01 to the Heart Rate Control Point
    /// (reset energy expended) when it has one, reads the Body Sensor Location, then
    /// prints each measurement's BPM (uint8 or uint16 format) as it arrives.
    func heartRate() async throws(CommandError) -> Int32 {
        let database = try await actions.database()
        let measurement = try characteristic(HeartRateProfile.measurement, in: HeartRateProfile.service, of: database)
        if let controlPoint = try? characteristic(HeartRateProfile.controlPoint, in: HeartRateProfile.service, of: database) {
            try await actions.write([HeartRateControlPoint.resetEnergyExpended], to: controlPoint, withoutResponse: false)
            report.emit("reset energy expended (wrote 01 to \(CentralTree.label(controlPoint.uuid)))",
                        ["event": "control-point", "value": "01"])
        }
        if let location = try? characteristic(HeartRateProfile.bodySensorLocation, in: HeartRateProfile.service, of: database) {
            let value = try await actions.read(location)
            let name = (try? BodySensorLocation(decoding: value[...]))?.name ?? Hex.encode(value)
            report.emit("body sensor location: \(name)", ["event": "body-sensor-location", "location": .string(name), "value": .string(Hex.encode(value))])
        }
        return try await actions.stream(measurement) { value throws(CommandError) in
            do {
                let m = try HeartRateMeasurement(decoding: value.value)
                report.emit(CentralValueText.heartRate(m), .object([JSONMember("event", "heart-rate")] + CentralValueText.heartRateJSON(m)))
            } catch {
                report.emit("malformed Heart Rate Measurement \(Hex.encode(value.value)): \(error)",
                            ["event": "malformed", "value": .string(Hex.encode(value.value)), "error": .string("\(error)")])
            }
            return true
        }
    }

    /// Seed 003: an HC-08 serial module (FFE0/FFE1). Subscribes and reads FFE1, prints
    /// what arrives as UTF-8 text, and sends each line of standard input (and `--send`)
    /// with Write Without Response, as the module's UART would.
    func serialModule() async throws(CommandError) -> Int32 {
        let database = try await actions.database()
        let data = try characteristic(SerialModuleProfile.characteristic, in: SerialModuleProfile.service, of: database)
        let send: (String) async throws(CommandError) -> Void = { line in
            let bytes = SerialModuleProfile.value(line)
            // Lines longer than ATT_MTU−3 go in pieces, as the module's UART would pass them.
            let size = await peer.mtu - 3
            var start = 0
            while start < bytes.count {
                let end = min(start + size, bytes.count)
                try await actions.write(Array(bytes[start..<end]), to: data, withoutResponse: true)
                start = end
            }
            report.emit("sent \(EventReport.quoted(line))", ["event": "sent", "text": .string(line)])
        }
        let values = try await actions.stream(data, waitFor: send) { value in
            let text = String(decoding: value.value, as: UTF8.self)
            report.emit("received \(EventReport.quoted(text))", ["event": "received", "text": .string(text), "value": .string(Hex.encode(value.value))])
            return true
        } prelude: { () async throws(CommandError) in
            if data.properties.contains(.read) {
                let value = try await actions.read(data)
                let text = String(decoding: value, as: UTF8.self)
                report.emit("read \(EventReport.quoted(text))", ["event": "read", "text": .string(text), "value": .string(Hex.encode(value))])
            }
            for line in actions.options.send { try await send(line) }
        }
        return values
    }

    /// Seed 001: the Red Bear Labs shield's lights, two-octet commands written without
    /// response to RX (713D0003).
    func light() async throws(CommandError) -> Int32 {
        let database = try await actions.database()
        let rx = try characteristic(LightShieldProfile.rx, in: LightShieldProfile.service, of: database)
        for item in actions.options.operands {
            guard let command = LightCommandText.parse(item) else { throw .usage("central light: '\(item)' is not a light command") }
            try await actions.write(command.encoded(), to: rx, withoutResponse: true)
            report.emit("sent \(command)", ["event": "light", "light": .integer(Int(command.light)), "on": .bool(command.isOn),
                                            "value": .string(Hex.encode(command.encoded()))])
        }
        return 0
    }

    /// Seed 000: receives the chunked transfer until "EOM" and prints the text.
    func transfer() async throws(CommandError) -> Int32 {
        let database = try await actions.database()
        let data = try characteristic(TransferProfile.characteristic, in: TransferProfile.service, of: database)
        var receiver = TransferReceiver()
        var message: String?
        let status = try await actions.stream(data) { value in
            Output.progressInPlace("received \(EventReport.bytes(receiver.received.count + value.value.count)) in \(String(count: receiver.chunks + 1, "chunk"))")
            let chunks = receiver.chunks
            if let text = receiver.receiveText(value.value) {
                message = text
                report.emit(text, ["event": "transfer", "text": .string(text), "bytes": .integer(text.utf8.count), "chunks": .integer(chunks)])
                return false
            }
            return true
        }
        guard message != nil else { throw .peer("the transfer ended before its EOM") }
        return status
    }
}
