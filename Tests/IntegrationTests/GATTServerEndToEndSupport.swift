import BenchSupport
import SwiftATTCore
import Foundation
import SwiftATTGATT
import SwiftATTHost
import TestSupport

/// Bumble's GATT client (Tests/bench/bumble_client.py) driven one step at a time: each
/// step is a JSON line on its stdin, each answer a JSON line on its stdout, matched by
/// sequence number. One process may run several clients, each on its own controller.
final class BumbleClient {
    let process: Process
    private let stdin: Pipe
    private let stdout: Pipe
    private let lines: JSONLineReader
    private var nextSequence = 0

    /// Clients on `controllers` (indices into the bench) with `addresses`, all aimed at
    /// `target`. With `connect: false` they connect at a `connect` step.
    init(bench: BumbleBench, controllers: [Int], addresses: [String], target: BluetoothAddress, connect: Bool = true) throws {
        process = Process()
        process.executableURL = BumbleBench.python
        var arguments = [BumbleBench.benchDirectory.appendingPathComponent("bumble_client.py").path,
                         "--target", target.description, "--stdin", "--duration", "240"]
        for (index, address) in zip(controllers, addresses) {
            arguments += ["--port", String(bench.ports[index]), "--address", address]
        }
        if !connect { arguments.append("--no-connect") }
        process.arguments = arguments
        stdin = Pipe()
        stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = try FileHandle(forWritingTo: bench.logURL)
        lines = JSONLineReader(stdout, name: "bumble_client.py")
        try process.runStoppable()
    }

    /// Sends a step without waiting; returns its sequence number for `result(_:)`.
    @discardableResult
    func send(_ step: [String: Any]) throws -> Int {
        let data = try JSONSerialization.data(withJSONObject: step)
        PipeWrites.write(Array(data) + [0x0A], to: stdin.fileHandleForWriting.fileDescriptor)
        defer { nextSequence += 1 }
        return nextSequence
    }

    /// The answer to step `sequence`.
    func result(_ sequence: Int, timeout: Duration = .seconds(40)) async throws -> [String: Any] {
        try await next("result", timeout: timeout) { $0["seq"] as? Int == sequence }
    }

    /// Runs one step and returns its answer.
    func run(_ step: [String: Any], timeout: Duration = .seconds(40)) async throws -> [String: Any] {
        try await result(try send(step), timeout: timeout)
    }

    /// The next line whose "event" is `event` and which `match` accepts, within `timeout`
    /// (lines before it are dropped).
    func next(_ event: String, timeout: Duration = .seconds(30), where match: @escaping ([String: Any]) -> Bool = { _ in true }) async throws -> [String: Any] {
        try await lines.next(event, timeout: timeout, where: match)
    }

    /// Ends the client within about half a second (`Process.end`): closing its stdin
    /// asks it to finish, SIGTERM and then SIGKILL make sure.
    func stop() {
        try? stdin.fileHandleForWriting.close()
        process.end()
    }

    deinit { stop() }
}

extension [String: Any] {
    /// A hex field as bytes (`nil` when absent or not hex).
    func bytes(_ key: String) -> [UInt8]? {
        (self[key] as? String).flatMap { try? Hex.decode($0) }
    }

    /// The ATT error code of a step's answer, `nil` when it succeeded.
    var attError: Int? { self["error"] as? Int }

    /// The values a `wait_values` or `values` step reported: (kind, handle, bytes).
    var receivedValues: [(kind: String, handle: Int, value: [UInt8])] {
        (self["values"] as? [[String: Any]] ?? []).map {
            ($0["kind"] as? String ?? "", $0["handle"] as? Int ?? 0, $0.bytes("value") ?? [])
        }
    }
}

/// Everything a peripheral reports, kept in order so a test can wait for an event that
/// may already have happened. One task reads the stream into an `ArrivalLog`; waiters
/// are woken on each event (no polling).
final class PeripheralEventLog: Sendable {
    private let log = ArrivalLog<PeripheralEvent>()
    private let reader: Task<Void, Never>

    init(_ events: AsyncStream<PeripheralEvent>) {
        let log = self.log
        reader = Task {
            for await event in events { log.append(event) }
            log.finish()
        }
    }

    deinit { reader.cancel() }

    /// How many events have been logged: a position to wait from.
    var count: Int { log.count }

    var events: [PeripheralEvent] { log.elements }

    /// The first value `match` takes from an event at position `start` or later.
    @discardableResult
    func wait<T>(
        for what: String, from start: Int = 0, timeout: Duration = .seconds(10),
        _ match: (PeripheralEvent) -> T?
    ) async throws -> T {
        try await log.first(what, from: start, within: timeout, match).value
    }
}

/// A GATT tree rendered one line per node, the same way from the Swift database and
/// from what Bumble discovered, so a difference reads as a diff.
enum GATTTreeText {
    /// The tree a client should discover in `database`: primary services (their
    /// included services, characteristics and descriptors), then the secondary services
    /// reached through includes.
    static func expected(_ database: GATTDatabase) -> [String] {
        var lines: [String] = []
        func describe(_ service: GATTService) {
            guard let range = database.handles(of: service) else { return }
            lines.append("service \(service.uuid.normalizedText) \(range.lowerBound)-\(range.upperBound) \(service.isPrimary ? "primary" : "secondary")")
            for included in service.includedServices {
                guard let r = database.handles(of: included) else { continue }
                lines.append("  includes \(included.uuid.normalizedText) \(r.lowerBound)-\(r.upperBound)")
            }
            for c in service.characteristics {
                guard let value = database.valueHandle(of: c), let declaration = database.declarationHandle(of: c),
                      let end = database.attribute(at: declaration)?.groupEnd else { continue }
                lines.append("  characteristic \(c.uuid.normalizedText) value \(value) end \(end) properties \(hex(c.declaredProperties.rawValue))")
                for handle in (value + 1)...max(value + 1, end) where handle <= end {
                    guard let attribute = database.attribute(at: handle) else { continue }
                    lines.append("    descriptor \(attribute.type.normalizedText) \(handle)")
                }
            }
        }
        for service in database.services where service.isPrimary { describe(service) }
        var seen = Set<ObjectIdentifier>()
        for service in database.services where service.isPrimary {
            for included in service.includedServices where !included.isPrimary && seen.insert(ObjectIdentifier(included)).inserted {
                describe(included)
            }
        }
        return lines
    }

    /// The same lines from a `discover` step's answer.
    static func discovered(_ result: [String: Any]) -> [String] {
        var lines: [String] = []
        let services = (result["services"] as? [[String: Any]] ?? []) + (result["included_services"] as? [[String: Any]] ?? [])
        for s in services {
            let primary = s["primary"] as? Bool ?? false
            lines.append("service \(uuid(s["uuid"])) \(s["start"] as? Int ?? -1)-\(s["end"] as? Int ?? -1) \(primary ? "primary" : "secondary")")
            for i in s["included"] as? [[String: Any]] ?? [] {
                lines.append("  includes \(uuid(i["uuid"])) \(i["start"] as? Int ?? -1)-\(i["end"] as? Int ?? -1)")
            }
            for c in s["characteristics"] as? [[String: Any]] ?? [] {
                lines.append("  characteristic \(uuid(c["uuid"])) value \(c["handle"] as? Int ?? -1) end \(c["end"] as? Int ?? -1) properties \(hex(UInt8(truncatingIfNeeded: c["properties"] as? Int ?? 0)))")
                for d in c["descriptors"] as? [[String: Any]] ?? [] {
                    lines.append("    descriptor \(uuid(d["uuid"])) \(d["handle"] as? Int ?? -1)")
                }
            }
        }
        return lines
    }

    /// Every attribute as "handle type", from the database and from Find Information.
    static func expectedAttributes(_ database: GATTDatabase) -> [String] {
        database.attributes.map { "\($0.handle) \($0.type.normalizedText)" }
    }

    static func discoveredAttributes(_ result: [String: Any]) -> [String] {
        (result["attributes"] as? [[Any]] ?? []).map { "\($0.first as? Int ?? -1) \(uuid($0.last))" }
    }

    private static func uuid(_ any: Any?) -> String {
        (any as? String).flatMap(BluetoothUUID.init).map(\.normalizedText) ?? "?\(any ?? "nil")"
    }

    private static func hex(_ byte: UInt8) -> String { "0x" + Hex.encode([byte]) }
}

extension BluetoothUUID {
    /// 16 bits when the UUID has a 16-bit alias, as ATT carries it.
    var normalizedText: String { (uuid16 != nil ? shortened : widened).description }
}
