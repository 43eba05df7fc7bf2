import SwiftATTJSON
import SwiftATTCore
import SwiftATTGATT
import SwiftATTHost

/// `discover`, `read`, `write` and `subscribe` on a connected peer, and the steps the
/// seed flows and the shell share.
struct CentralActions {
    let options: CentralCommand.Options
    let peer: Peer
    let report: EventReport
    let inputs: CentralInputs

    /// The whole database, discovered once per run.
    func database() async throws(CommandError) -> GATTClientDatabase {
        Output.progress("discovering services…")
        do {
            return try await peer.discoverDatabase()
        } catch {
            throw CentralSession.failure("discovering the database", error)
        }
    }

    /// The tree, with every readable value and descriptor read and decoded
    /// (`DiscoveredValues`: a refused read is shown with its ATT error).
    func discover() async throws(CommandError) -> Int32 {
        let database = try await database()
        let read = await DiscoveredValues.read(database, from: peer)
        if options.json {
            report.emit("", CentralTree.json(database, read: read))
        } else {
            for line in CentralTree.text(database, read: read) { Output.print(line) }
            Output.flush()
        }
        return 0
    }

    func read() async throws(CommandError) -> Int32 {
        let characteristic = try CentralConnector.characteristic(options.operands[0], in: try await database())
        let value = try await read(characteristic)
        emitValue(value, of: characteristic, event: "read")
        return 0
    }

    func read(_ characteristic: GATTClient.Characteristic) async throws(CommandError) -> [UInt8] {
        do {
            return try await peer.read(characteristic)
        } catch {
            throw CentralSession.failure("reading \(CentralTree.label(characteristic.uuid))", error)
        }
    }

    func write() async throws(CommandError) -> Int32 {
        let characteristic = try CentralConnector.characteristic(options.operands[0], in: try await database())
        let value = try Self.value(options.operands[1], text: options.text)
        let type: GATTWriteType
        if options.signed {
            type = try await signedWrite(value, to: characteristic)
        } else {
            type = try await write(value, to: characteristic, withoutResponse: options.withoutResponse)
        }
        let how: String
        switch type {
        case .withResponse: how = ""
        case .withoutResponse: how = " (without response)"
        case .signedWithoutResponse: how = " (signed, without response)"
        }
        report.emit("wrote \(EventReport.bytes(value.count)) to \(CentralTree.label(characteristic.uuid))\(how)",
                    ["event": "written", "handle": .integer(Int(characteristic.valueHandle)),
                     "uuid": .string(characteristic.uuid.description), "value": .string(Hex.encode(value)),
                     "withResponse": .bool(type == .withResponse), "signed": .bool(type == .signedWithoutResponse)])
        return 0
    }

    /// `write --signed`: a Signed Write Command, to a characteristic that takes them, on
    /// a link to a bonded device (the CSRK this device gave it). On an encrypted link a
    /// plain Write Command goes instead (Part G §4.9.2), and says so.
    func signedWrite(_ value: [UInt8], to characteristic: GATTClient.Characteristic) async throws(CommandError) -> GATTWriteType {
        guard characteristic.properties.contains(.authenticatedSignedWrites) else {
            throw .input("\(CentralTree.label(characteristic.uuid)) does not take signed writes (its properties: "
                         + "\(CentralTree.properties(characteristic.properties).joined(separator: ", ")))")
        }
        let encrypted = await peer.securityLevel.isEncrypted
        do {
            try await peer.write(value, to: characteristic, type: .signedWithoutResponse)
        } catch {
            throw CentralSession.failure("writing \(CentralTree.label(characteristic.uuid)) signed", error)
        }
        return encrypted ? .withoutResponse : .signedWithoutResponse
    }

    /// Writes as asked; a characteristic that only takes Write Commands gets one.
    @discardableResult
    func write(_ value: [UInt8], to characteristic: GATTClient.Characteristic, withoutResponse: Bool) async throws(CommandError) -> GATTWriteType {
        let p = characteristic.properties
        if withoutResponse, !p.contains(.writeWithoutResponse) {
            throw .input("\(CentralTree.label(characteristic.uuid)) does not take Write Commands (it allows: "
                         + "\(CentralTree.properties(p).joined(separator: ", "))); leave out --without-response")
        }
        let type: GATTWriteType = withoutResponse || (!p.contains(.write) && p.contains(.writeWithoutResponse)) ? .withoutResponse : .withResponse
        do {
            try await peer.write(value, to: characteristic, type: type)
        } catch {
            throw CentralSession.failure("writing \(CentralTree.label(characteristic.uuid))", error)
        }
        return type
    }

    func subscribe() async throws(CommandError) -> Int32 {
        let characteristic = try CentralConnector.characteristic(options.operands[0], in: try await database())
        return try await stream(characteristic) { value in
            emitValue(value.value, of: characteristic, event: value.isIndication ? "indication" : "notification")
            return true
        }
    }

    /// Subscribes and hands each value to `body` until it returns false, `--count`
    /// values have come, `--duration` passes, or Ctrl-C; then unsubscribes. A link that
    /// goes down ends it with exit status 4.
    func stream(
        _ characteristic: GATTClient.Characteristic, waitFor inputLines: ((String) async throws(CommandError) -> Void)? = nil,
        _ body: (GATTNotification) throws(CommandError) -> Bool,
        prelude: () async throws(CommandError) -> Void = {}
    ) async throws(CommandError) -> Int32 {
        let values: GATTNotificationStream
        do {
            values = try await peer.notifications(of: characteristic)
        } catch {
            throw CentralSession.failure("subscribing to \(CentralTree.label(characteristic.uuid))", error)
        }
        Output.progress("subscribed to \(CentralTree.label(characteristic.uuid)); Ctrl-C stops")
        try await prelude()
        var received = 0
        var ended: (any Error)?
        let merged = centralEvents(values: values, inputs: inputs, duration: options.duration)
        defer { merged.stop() }
        events: for await event in merged {
            switch event {
            case let .value(value):
                received += 1
                if try !body(value) || received >= options.count ?? .max { break events }
            case let .valuesEnded(error):
                ended = error ?? GATTClientError.disconnected(.init(code: 0x08, name: "link ended"))
                break events
            case let .input(.line(line)):
                try await inputLines?(line)
            case .input(.endOfInput):
                break
            case .input(.signal), .timeUp:
                break events
            }
        }
        merged.stop()
        if let ended {
            throw .peer("\(CentralTree.label(characteristic.uuid)): \(CentralSession.text(ended))")
        }
        try? await peer.setNotify([], for: characteristic)
        return 0
    }

    func emitValue(_ value: [UInt8], of characteristic: GATTClient.Characteristic, event: String) {
        let what = options.action == .read ? "" : "\(event) "
        report.emit("\(what)\(CentralTree.label(characteristic.uuid)) (\(Hex.handle(characteristic.valueHandle))): \(CentralValueText.text(value, uuid: characteristic.uuid))",
                    .object([JSONMember("event", .string(event)), JSONMember("handle", .integer(Int(characteristic.valueHandle))),
                             JSONMember("uuid", .string(characteristic.uuid.description))]
                            + (CentralTree.name(characteristic.uuid).map { [JSONMember("name", .string($0))] } ?? [])
                            + CentralValueText.json(value, uuid: characteristic.uuid)))
    }

    /// A value given on the command line: hex, or with `--text` its UTF-8.
    static func value(_ text: String, text isText: Bool) throws(CommandError) -> [UInt8] {
        if isText { return Array(text.utf8) }
        do {
            return try Hex.decode(text)
        } catch {
            throw .input("'\(text)' is not hex (\(error)); give --text to write it as UTF-8 text")
        }
    }
}
