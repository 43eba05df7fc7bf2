#if canImport(Glibc)
import Glibc
#endif
import SwiftATTJSON
import SwiftATTCore
import SwiftATTDatabaseFile
import SwiftATTGATT
import SwiftATTHCI
import SwiftATTHost
import SwiftATTProfiles
import SwiftATTSecurity

/// One run of `swift-att peripheral`: a state machine fed by one stream of inputs — the
/// peripheral's events, writes the profile's handlers pass on, signals, standard input
/// and timers — so every decision is taken in one place, in order.
///
/// Seed 000's flow lives in `pumpTransfer`: offer the next chunk to `updateValue`, move
/// on only when it was accepted, and on refusal wait for `.readyToUpdate`.
final class PeripheralSession {
    enum Input: Sendable {
        case started(Peripheral)
        case startFailed(ControllerError)
        case event(PeripheralEvent)
        /// A link's security changed (pairing, encryption).
        case security(SecurityEvent)
        /// The peripheral's event stream finished: the controller is gone.
        case eventsEnded
        case watched(WatchedInput)
        /// heart-rate: time for the next measurement.
        case tick
        case durationElapsed
        case stopTimedOut
        /// hc08 and light: a central wrote this.
        case written([UInt8])
        case controlPoint(HeartRateControlPoint.Write)
        /// --database: a central wrote a value the file lets it write.
        case fileWrite(DatabaseFile.Write)
        /// battery: time to drain one percent.
        case drain
        /// --privacy: the private address has been used for its lifetime.
        case privateAddressExpired
    }

    enum State {
        case starting
        case running(Peripheral)
        /// Disconnecting the centrals before closing.
        case stopping(Peripheral)
    }

    /// A line of standard input on its way out as notifications (hc08).
    struct OutgoingLine {
        let text: String
        let chunks: [[UInt8]]
        var next = 0
    }

    let options: PeripheralCommand.Options
    let served: Served
    let advertisement: ProfileAdvertisement
    let report: EventReport
    let inputs: AsyncStream<Input>.Continuation
    /// The identity and bonds (`--bonds`), opened when the controller has named itself.
    let bonds: CommandBondFile
    var state = State.starting
    var stopReason = ""
    var connections: [UInt16: BluetoothAddress] = [:]
    var mtus: [UInt16: Int] = [:]
    /// Connections subscribed to `served.pushed`.
    var subscribers: Set<UInt16> = []
    var tasks: [Task<Void, Never>] = []
    /// `updateValue` said no; `.readyToUpdate` will say when to go on.
    var waitingForRoom = false
    // heart-rate
    var simulator: HeartRateSimulator
    // transfer
    var sender: TransferSender?
    // hc08
    var outbox: [OutgoingLine] = []
    // battery, heart-rate --battery
    let batteryLevel: GATTCharacteristic?
    /// The name advertised and served as the GAP Device Name.
    let name: String
    var battery: BatterySimulator

    init(options: PeripheralCommand.Options, setup: Setup, inputs: AsyncStream<Input>.Continuation) {
        self.options = options
        served = setup.served
        advertisement = setup.advertisement
        batteryLevel = setup.batteryLevel
        name = setup.name
        self.inputs = inputs
        bonds = CommandBondFile(path: options.bonds)
        report = EventReport(json: options.json, names: setup.names)
        battery = BatterySimulator(level: options.battery?.level ?? 100, drainEvery: 1)
        simulator = HeartRateSimulator(seed: 1, format: options.format, intervalMilliseconds: options.intervalMilliseconds)
    }

    // MARK: Running

    static func run(_ options: PeripheralCommand.Options) async throws(CommandError) -> Int32 {
        let (stream, inputs) = AsyncStream<Input>.makeStream()
        let setup = try Self.setup(options, inputs: inputs)
        _ = InputWatcher.installSignalHandlers()
        // hc08 notifies lines; a battery takes levels.
        let readsLines = (options.profile == .hc08 || setup.batteryLevel != nil) && isatty(STDIN_FILENO) == 0
        InputWatcher.start(readingLines: readsLines) { inputs.yield(.watched($0)) }

        let session = PeripheralSession(options: options, setup: setup, inputs: inputs)
        let database = try setup.database(announcing: options.serverFeatures)
        let bonds = session.bonds
        try ControllerSession.beforeOpening(options.transport)
        session.tasks.append(Task {
            do throws(ControllerError) {
                inputs.yield(.started(try await Peripheral.start(
                    transport: options.transport, database: database, capturePath: options.capture, storage: bonds)))
            } catch {
                inputs.yield(.startFailed(error))
            }
        })
        defer { session.tasks.forEach { $0.cancel() } }
        for await input in stream {
            if let status = try await session.handle(input) { return status }
        }
        return 0
    }

    /// Takes one input; returns the exit status once the command is done.
    func handle(_ input: Input) async throws(CommandError) -> Int32? {
        switch input {
        case let .started(peripheral):
            try await begin(peripheral)
        case let .startFailed(error):
            throw bonds.commandError(error)
        case let .event(event):
            return try await handle(event)
        case let .security(event):
            report.emit(SecurityEventText.text(event), SecurityEventText.json(event))
            if !options.json, event.change.isStorageFailure { Output.error(SecurityEventText.text(event)) }
        case .eventsEnded:
            return try await controllerEnded()
        case let .watched(.signal(signo)):
            return await stop(signo == SIGTERM ? "SIGTERM" : "SIGINT")
        case .durationElapsed:
            return await stop("duration elapsed")
        case .stopTimedOut:
            if case let .stopping(peripheral) = state { return await finish(peripheral) }
        case let .watched(.line(text)):
            if case .serial = served {
                await queueLine(text)
            } else {
                await setBatteryLevel(text)
            }
        case .watched(.endOfInput):
            break
        case .tick:
            await sendMeasurement()
        case let .written(value):
            received(value)
        case let .controlPoint(write):
            controlPoint(write)
        case let .fileWrite(write):
            fileWritten(write)
        case .drain:
            await drainBattery()
        case .privateAddressExpired:
            await advertiseFromANewAddress()
        }
        return nil
    }

    private func begin(_ peripheral: Peripheral) async throws(CommandError) {
        guard case .starting = state else { return }
        state = .running(peripheral)
        let events = peripheral.events()
        let inputs = self.inputs
        tasks.append(Task.onCommandLoop {
            for await event in events { inputs.yield(.event(event)) }
            inputs.yield(.eventsEnded)
        })
        // Centrals pair as --io says; the user's part is answered from --passkey and --yes.
        let delegate = TerminalPairingDelegate(options: options.pairing, terminal: nil, json: options.json)
        var security = options.pairing.securityConfiguration
        security.privateAddressLifetime = options.privacy.lifetime
        let identity: LocalIdentity?
        do throws(CommandError) {
            try await PairingOptions.configure(peripheral.controller, security, delegate: delegate)
            identity = try options.privacy.identity(of: peripheral.controller, command: "peripheral", bondFile: options.bonds)
        } catch {
            await peripheral.close()
            bonds.close()
            throw error
        }
        let securityEvents = peripheral.controller.securityEvents()
        tasks.append(Task.onCommandLoop {
            for await event in securityEvents { inputs.yield(.security(event)) }
        })
        try await advertise(peripheral)
        // With --privacy: the private address on the air and the identity it stands for.
        let address = (peripheral.controller.resolvablePrivateAddress ?? peripheral.info.randomAddress).description
        let privately = identity.map { " (resolvable private address of identity \($0.address))" } ?? ""
        let service = served.service.map { " (service \(report.describe($0)))" } ?? ""
        let enhanced = options.serverFeatures.contains(.enhancedATT)
        report.emit(
            "\(options.profile.rawValue): advertising \(EventReport.quoted(name)) as \(address)\(privately)\(service) on \(options.transport)"
                + (enhanced ? ", with Enhanced ATT (bearers on PSM 0x0027 once the link is encrypted)" : ""),
            ["event": "advertising", "profile": .string(options.profile.rawValue), "name": .string(name),
             "address": .string(address), "identity": identity.map { .string($0.address.description) } ?? .null,
             "service": served.service.map { .string($0.description) } ?? .null,
             "transport": .string(options.transport.description), "enhancedATT": .bool(enhanced)])
        if let lifetime = options.privacy.lifetime {
            // A new private address is taken at the next start of advertising once the
            // last has expired: start it again each lifetime, so it changes on time.
            tasks.append(Task.onCommandLoop {
                while !Task.isCancelled {
                    try? await Task.sleep(for: lifetime)
                    if !Task.isCancelled { inputs.yield(.privateAddressExpired) }
                }
            })
        }
        if let duration = options.duration {
            tasks.append(Task.onCommandLoop {
                try? await Task.sleep(for: duration)
                if !Task.isCancelled { inputs.yield(.durationElapsed) }
            })
        }
        // Lines read before the controller was ready go out now.
        await pumpOutbox()
        if case .heartRate = served {
            let interval = options.interval
            tasks.append(Task.onCommandLoop {
                while !Task.isCancelled {
                    try? await Task.sleep(for: interval)
                    inputs.yield(.tick)
                }
            })
        }
        if batteryLevel != nil, let drain = options.battery?.drain {
            tasks.append(Task.onCommandLoop {
                while !Task.isCancelled {
                    try? await Task.sleep(for: drain)
                    inputs.yield(.drain)
                }
            })
        }
    }

    /// --privacy: advertising started again from a fresh private address, if it is on
    /// (while connections keep it off, readvertising takes the new address later).
    private func advertiseFromANewAddress() async {
        guard case let .running(peripheral) = state, peripheral.isAdvertising else { return }
        do {
            try await peripheral.startAdvertising(
                data: advertisement.data, scanResponse: advertisement.scanResponse, interval: .milliseconds(100))
        } catch {
            return report.emit("could not advertise again: \(error)",
                               ["event": "advertising-failed", "error": .string(error.description)])
        }
        guard let address = peripheral.controller.resolvablePrivateAddress else { return }
        report.emit("advertising as \(address) now",
                    ["event": "private-address", "address": .string(address.description)])
    }

    private func advertise(_ peripheral: Peripheral) async throws(CommandError) {
        do {
            try await peripheral.startAdvertising(
                data: advertisement.data, scanResponse: advertisement.scanResponse, interval: .milliseconds(100))
        } catch {
            await peripheral.close()
            throw .failure(error.description)
        }
    }

    // MARK: Peripheral events

    private func handle(_ event: PeripheralEvent) async throws(CommandError) -> Int32? {
        switch event {
        case let .connected(handle, address):
            connections[handle] = address
            report.emit("connected \(address)",
                        ["event": "connected", "address": .string(address.description), "handle": .integer(Int(handle))])
        case let .disconnected(handle, reason):
            let address = connections.removeValue(forKey: handle)?.description ?? "0x\(String(handle, radix: 16))"
            mtus[handle] = nil
            subscribers.remove(handle)
            report.emit("disconnected \(address) (\(reason.name))",
                        ["event": "disconnected", "address": .string(address), "handle": .integer(Int(handle)),
                         "reason": .integer(Int(reason.rawValue)), "reasonName": .string(reason.name)])
            // Advertising resumes by itself (Peripheral's readvertising): nothing to do
            // here unless stopping.
            if case let .stopping(peripheral) = state, connections.isEmpty { return await finish(peripheral) }
        case let .subscriptionChanged(change):
            await subscriptionChanged(change)
        case let .mtuChanged(handle, mtu):
            mtus[handle] = mtu
            report.emit("mtu \(mtu) (\(connections[handle]?.description ?? "0x\(String(handle, radix: 16))"))",
                        ["event": "mtu", "handle": .integer(Int(handle)), "mtu": .integer(mtu)])
            // A transfer under way goes on in chunks that fit the new MTU.
            if subscribers.contains(handle) { sender?.resize(to: transferChunkSize) }
        case .readyToUpdate:
            guard waitingForRoom else { break }
            waitingForRoom = false
            report.emit("ready to update", ["event": "ready-to-update"])
            await pumpTransfer()
            await pumpOutbox()
        case .indicationConfirmed:
            break
        case .advertisingResumed:
            report.emit("advertising again (\(connections.count) connected)",
                        ["event": "advertising-resumed", "connections": .integer(connections.count)])
        case let .advertisingFailed(error):
            report.emit("could not advertise again: \(error)",
                        ["event": "advertising-failed", "error": .string(error.description)])
        case let .controllerRecovery(recovery):
            try await controllerRecovery(recovery)
        }
        return nil
    }

    /// The controller failed (Hardware Error) and the host resets it: said plainly, and
    /// the command fails if the controller cannot be restarted.
    private func controllerRecovery(_ recovery: ControllerRecovery) async throws(CommandError) {
        switch recovery {
        case let .hardwareError(code):
            let hex = "0x" + (code < 0x10 ? "0" : "") + String(code, radix: 16)
            report.emit("the controller reported hardware error \(hex): its links are lost; resetting it",
                        ["event": "hardware-error", "code": .integer(Int(code))])
        case .restarted:
            report.emit("the controller was reset and works again", ["event": "controller-restarted"])
        case let .restartFailed(error):
            report.emit("the controller could not be restarted: \(error)",
                        ["event": "controller-restart-failed", "error": .string(error.description)])
            if case let .running(peripheral) = state { await peripheral.close() }
            throw .failure("the controller reported a hardware error and could not be restarted: \(error)")
        }
    }

    private func subscriptionChanged(_ change: GATTSubscriptionChange) async {
        let handle = change.connection.rawValue
        let uuid = change.characteristic.uuid
        let on = !change.configuration.isEmpty
        var text = "\(on ? "subscribed" : "unsubscribed") \(report.describe(uuid))"
        if on && !change.configuration.contains(.notification) { text += " (indications)" }
        if change.cause == .disconnected { text += " (disconnected)" }
        report.emit(text, [
            "event": .string(on ? "subscribed" : "unsubscribed"), "uuid": .string(uuid.description),
            "name": report.name(of: uuid).map { .string($0) } ?? .null, "handle": .integer(Int(handle)),
            "notifications": .bool(change.configuration.contains(.notification)),
            "indications": .bool(change.configuration.contains(.indication)),
            "cause": .string(Self.name(of: change.cause)),
        ])
        guard let pushed = served.pushed, change.characteristic === pushed else { return }
        if on { subscribers.insert(handle) } else { subscribers.remove(handle) }
        guard case .transfer = served else { return }
        if on {
            // As the seed's didSubscribeToCharacteristic: start over from the first chunk,
            // in chunks as long as every subscriber's ATT_MTU allows.
            let sender = TransferSender(data: options.text, chunkSize: transferChunkSize)
            self.sender = sender
            report.emit("sending \(EventReport.bytes(sender.data.count)) in \(String(count: sender.chunkCount, "chunk")) + EOM",
                        ["event": "transfer-started", "bytes": .integer(sender.data.count), "chunks": .integer(sender.chunkCount)])
            await pumpTransfer()
        } else if !subscribers.isEmpty {
            // The smallest MTU may have left with this subscriber.
            sender?.resize(to: transferChunkSize)
        } else if let sender, !sender.isFinished {
            self.sender = nil
            report.emit("transfer stopped after \(EventReport.bytes(sender.bytesSent)) of \(sender.data.count): no subscribers",
                        ["event": "transfer-stopped", "bytes": .integer(sender.bytesSent), "total": .integer(sender.data.count)])
        }
    }

    static func name(of contact: HeartRateMeasurement.SensorContact) -> String {
        switch contact {
        case .notSupported: return "not supported"
        case .notDetected: return "not detected"
        case .detected: return "detected"
        }
    }

    static func name(of cause: GATTSubscriptionChange.Cause) -> String {
        switch cause {
        case .written: return "written"
        case .restored: return "restored"
        case .disconnected: return "disconnected"
        case .databaseChanged: return "database changed"
        }
    }

    // MARK: Profiles

    /// heart-rate: one simulated measurement to the subscribers.
    private func sendMeasurement() async {
        guard case let .running(peripheral) = state, case let .heartRate(server) = served, !subscribers.isEmpty else { return }
        var next = simulator
        let m = next.next()
        let value = m.encoded()
        guard peripheral.updateValue(value, for: server.measurement) else {
            report.emit("skipped a measurement: transmit queue full", ["event": "skipped"])
            return
        }
        simulator = next
        var text = "sent \(m.beatsPerMinute) bpm"
        if let energy = m.energyExpended { text += ", energy expended \(energy) kJ" }
        report.emit(text, [
            "event": "sent", "bpm": .integer(Int(m.beatsPerMinute)), "flags": .integer(Int(m.flags.rawValue)),
            "format": .string(m.encodedFormat == .uint16 ? "uint16" : "uint8"),
            "sensorContact": .string(Self.name(of: m.sensorContact)),
            "energyExpended": m.energyExpended.map { .integer(Int($0)) } ?? .null,
            "rrIntervals": .array(m.rrIntervals.map { .integer(Int($0)) }), "value": .string(Hex.encode(value)),
        ])
    }

    private func controlPoint(_ write: HeartRateControlPoint.Write) {
        let hex = Hex.encode(write.value)
        switch write.command {
        case .resetEnergyExpended:
            simulator.resetEnergyExpended()
            report.emit("control point: reset energy expended",
                        ["event": "control-point", "value": .string(hex), "command": "reset energy expended"])
        case nil:
            let code = HeartRateControlPoint.valueNotSupported.rawValue
            report.emit(
                "control point: \(hex.isEmpty ? "empty value" : hex) refused with 0x\(String(code, radix: 16)) "
                    + "(\(HeartRateControlPoint.valueNotSupportedName))",
                ["event": "control-point", "value": .string(hex), "error": .integer(Int(code)),
                 "errorName": .string(HeartRateControlPoint.valueNotSupportedName)])
        }
    }

    /// transfer: the longest chunk every subscriber gets whole, ATT_MTU−3 of the smallest
    /// MTU among them (20 octets before any MTU exchange).
    private var transferChunkSize: Int {
        TransferProfile.chunkSize(mtu: subscribers.map { mtus[$0] ?? 23 }.min() ?? 23)
    }

    /// transfer: seed 000's `sendData`.
    private func pumpTransfer() async {
        guard case let .running(peripheral) = state, case let .transfer(server) = served else { return }
        // The chunks' lines go out together once the controller's queue is full or the
        // transfer is done, not a write each.
        defer { Output.flush() }
        while var sender, let chunk = sender.pending {
            guard peripheral.updateValue(chunk, for: server.characteristic) else {
                pause()
                return
            }
            let isEnd = sender.isSendingEndOfMessage
            sender.accepted()
            self.sender = sender
            if isEnd {
                report.emit("sent EOM", ["event": "eom"])
                report.emit(
                    "transfer complete: \(EventReport.bytes(sender.data.count)) in \(String(count: sender.chunksSent, "chunk")) + EOM",
                    ["event": "transfer-complete", "bytes": .integer(sender.data.count), "chunks": .integer(sender.chunksSent)])
                self.sender = nil
            } else {
                report.emitInBurst(
                    "sent chunk \(sender.chunksSent)/\(sender.chunkCount): \(EventReport.bytes(chunk.count)) "
                        + EventReport.quoted(String(decoding: chunk, as: UTF8.self))
                ) { line in
                    line.member("event", literal: "chunk")
                    line.member("index", sender.chunksSent)
                    line.member("bytes", chunk.count)
                    line.member("value", unescapedCount: chunk.count * 2) { Hex.write(chunk, into: $0) }
                }
            }
        }
    }

    private func pause() {
        guard !waitingForRoom else { return }
        waitingForRoom = true
        report.emit("paused: transmit queue full, waiting for ready to update", ["event": "paused"])
    }

    /// hc08: a line of standard input becomes notifications of at most ATT_MTU−3 octets.
    private func queueLine(_ text: String) async {
        guard case .serial = served else { return }
        let mtu = subscribers.compactMap { mtus[$0] }.min() ?? 23
        outbox.append(OutgoingLine(text: text, chunks: SerialModuleProfile.chunks(text, maximumLength: mtu - 3)))
        if !waitingForRoom { await pumpOutbox() }
    }

    private func pumpOutbox() async {
        guard case let .running(peripheral) = state, case let .serial(server) = served else { return }
        while var line = outbox.first {
            while line.next < line.chunks.count {
                guard peripheral.updateValue(line.chunks[line.next], for: server.characteristic) else {
                    outbox[0] = line
                    pause()
                    return
                }
                line.next += 1
            }
            outbox.removeFirst()
            let count = line.chunks.reduce(0) { $0 + $1.count }
            var text = "sent \(EventReport.quoted(line.text)) (\(EventReport.bytes(count))"
            if line.chunks.count > 1 { text += " in \(line.chunks.count) notifications" }
            text += subscribers.isEmpty ? ", no subscribers)" : ")"
            report.emit(text, ["event": "sent", "text": .string(line.text), "value": .string(Hex.encode(line.chunks.joined())),
                               "notifications": .integer(line.chunks.count), "subscribers": .integer(subscribers.count)])
        }
    }

    /// hc08 and light: what a central wrote.
    private func received(_ value: [UInt8]) {
        let hex = Hex.encode(value)
        switch served {
        case .light:
            do {
                let command = try LightCommand(decoding: value)
                report.emit("received light command: \(command) (\(Hex.encode(value, separator: " ")))",
                            ["event": "light-command", "light": .integer(Int(command.light)), "on": .bool(command.isOn),
                             "value": .string(hex)])
            } catch {
                report.emit("received \(EventReport.bytes(value.count)), not a light command: \(error)",
                            ["event": "received", "value": .string(hex), "error": .string(error.description)])
            }
        default:
            let text = SerialModuleProfile.text(value)
            report.emit("received \(EventReport.quoted(text)) (\(EventReport.bytes(value.count)))",
                        ["event": "received", "text": .string(text), "value": .string(hex)])
        }
    }

    // MARK: Stopping

    /// SIGINT, SIGTERM or the duration: disconnect the centrals (bounded), then close.
    private func stop(_ reason: String) async -> Int32? {
        stopReason = reason
        switch state {
        case .starting:
            report.emit("stopped (\(reason))", ["event": "stopped", "reason": .string(reason)])
            return 0
        case let .stopping(peripheral):
            // A second signal: close now.
            return await finish(peripheral)
        case let .running(peripheral):
            state = .stopping(peripheral)
            try? await peripheral.stopAdvertising()
            if connections.isEmpty { return await finish(peripheral) }
            for handle in connections.keys.sorted() { try? await peripheral.disconnect(handle) }
            let inputs = self.inputs
            tasks.append(Task {
                try? await Task.sleep(for: .seconds(2))
                if !Task.isCancelled { inputs.yield(.stopTimedOut) }
            })
            return nil
        }
    }

    private func finish(_ peripheral: Peripheral) async -> Int32 {
        tasks.forEach { $0.cancel() }
        await peripheral.close()
        bonds.close()
        report.emit("stopped (\(stopReason))", ["event": "stopped", "reason": .string(stopReason)])
        return 0
    }

    /// The event stream ended without our asking: the transport or controller failed.
    private func controllerEnded() async throws(CommandError) -> Int32? {
        switch state {
        case .starting:
            return nil
        case let .stopping(peripheral):
            return await finish(peripheral)
        case let .running(peripheral):
            // A command on a stopped loop fails with the reason the loop stopped.
            do {
                _ = try await peripheral.controller.send(ReadBDADDR())
            } catch {
                throw .failure(error.description)
            }
            throw .failure("the controller stopped")
        }
    }
}
