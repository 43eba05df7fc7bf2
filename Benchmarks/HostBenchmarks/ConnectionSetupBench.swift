import BenchSupport
import Foundation
import SwiftATTCore
import SwiftATTGATT
import SwiftATTHCI
import SwiftATTHost
import SwiftATTL2CAP
import SwiftATTPDU
import SwiftATTTransport
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Connection set-up, timed: from the start of a central's connect to a usable ATT
/// bearer, and to a discovered database, for swift-att's central and for Bumble's host
/// as the central, against one and the same peripheral, over four of Bumble's virtual
/// controllers on one virtual radio (a fresh controller process per set of connections).
///
/// The peripheral is a Bumble host in a process of its own
/// (Benchmarks/bumble_connect_benchmark.py, `peripheral`): GAP, GATT (with Service
/// Changed and Database Hash), Device Information, Heart Rate, Battery and a custom
/// 128-bit service; it advertises every 20 ms and again after each disconnection. Bumble's
/// central is a second process of that script (`central`); swift-att's are two `Central`s
/// in this process, one capturing its HCI traffic and one not. The centrals take turns,
/// and all do the same: connect to the peripheral's static random address (no scan:
/// LE Create Connection, scan interval and window 60 ms, interval 30–50 ms) — the end
/// point "link" when connect returns, at the LE Connection Complete — exchange ATT_MTU
/// 517, read Device Name with Read Using Characteristic UUID — the end point "usable" —
/// then discover the whole database as `Peer.discoverDatabase()` does (services,
/// included services, characteristics, descriptors, the Database Hash read, Service
/// Changed's CCCD written) — the end point "discovered" — then disconnect. The
/// peripheral counts the ATT requests of each connection.
///
/// Capturing costs each host time per packet (swift-att writes each record to its file
/// at once; Bumble formats each in Python), so the timings come from uncaptured
/// connections, and the captured ones, run beside them, say where the time went
/// (`Breakdown`, from btsnoop timestamps on the wall clock).
enum ConnectionSetupBench {
    static let peripheralAddress = BluetoothAddress(0xC0_5A_17_00_C5_01, kind: .random)
    static let bumbleCentralAddress = "C0:5A:17:00:C5:03"
    static let script = Repository.url("Benchmarks/bumble_connect_benchmark.py")
    static let deviceName = BluetoothUUID(0x2A00)
    /// The peripheral's advertising interval, µs (the script's --interval).
    static let advertisingInterval = 20_000

    /// One connection: when it started (wall clock, µs since the Unix epoch, to find it
    /// in a capture), the seconds from there to each end point, and the ATT requests
    /// the peripheral's server received on it.
    struct Timing {
        var start: Int64
        var link: Double
        var usable: Double
        var discovered: Double
        var requests = 0
        /// Services, characteristics and descriptors found.
        var found: [Int]

        func end(_ point: EndPoint) -> Int64 {
            start + Int64(((point == .usable ? usable : discovered) * 1e6).rounded())
        }
    }

    enum EndPoint: CaseIterable {
        case usable, discovered
    }

    /// One set: each central's timed connections, uncaptured and captured, and the
    /// captures.
    struct SetResult {
        var swiftATT: [Timing] = []
        var bumble: [Timing] = []
        var swiftATTCaptured: [Timing] = []
        var bumbleCaptured: [Timing] = []
        var swiftATTCapture: [BTSnoop.Record] = []
        var bumbleCapture: [BTSnoop.Record] = []
    }

    /// Which central connects, and whether its traffic is captured.
    private struct Turn {
        var swiftATT: Bool
        var captured: Bool
    }

    /// Fresh controllers, the peripheral and the centrals; `warmup` untimed rounds,
    /// then `rounds` timed ones. A round is one connection of each central, uncaptured
    /// then captured; swift-att goes first in even rounds, Bumble in odd ones.
    static func runSet(rounds: Int, warmup: Int) async throws -> SetResult {
        let bench = try await BumbleBench(controllers: 4, leACLLength: 251)
        defer { bench.stop() }
        let directory = FileManager.default.temporaryDirectory
        let swiftCapture = directory.appendingPathComponent("swift-att-connect-\(bench.ports[0]).btsnoop").path
        let bumbleCapture = directory.appendingPathComponent("bumble-connect-\(bench.ports[0]).btsnoop").path
        defer {
            try? FileManager.default.removeItem(atPath: swiftCapture)
            try? FileManager.default.removeItem(atPath: bumbleCapture)
        }
        let peripheral = try BumbleHost(["peripheral", "--transport", "tcp-client:127.0.0.1:\(bench.ports[0])",
                                         "--address", peripheralAddress.description,
                                         "--interval", String(Double(advertisingInterval) / 1000)], log: bench.logURL)
        defer { peripheral.stop() }
        _ = try await peripheral.next("ready")
        let bumble = try BumbleHost(["central", "--transport", "tcp-client:127.0.0.1:\(bench.ports[3])",
                                     "--address", bumbleCentralAddress, "--peer", peripheralAddress.description,
                                     "--snoop", bumbleCapture], log: bench.logURL)
        defer { bumble.stop() }
        _ = try await bumble.next("ready")
        let central = try await Central.start(transport: .tcpClient(host: "127.0.0.1", port: bench.ports[1]))
        let capturing: Central
        do {
            capturing = try await Central.start(transport: .tcpClient(host: "127.0.0.1", port: bench.ports[2]), capturePath: swiftCapture)
        } catch {
            await central.close()
            throw error
        }
        var result = SetResult()
        do {
            for round in 0..<(warmup + rounds) {
                let first = round.isMultiple(of: 2)
                for turn in [Turn(swiftATT: first, captured: false), Turn(swiftATT: !first, captured: false),
                             Turn(swiftATT: first, captured: true), Turn(swiftATT: !first, captured: true)] {
                    // The controller connects at the peripheral's next advertisement, and
                    // the peripheral starts advertising again when the last link ends: a
                    // random pause makes the wait uniform over the interval for every
                    // central, rather than set by how fast each comes back.
                    try await Task.sleep(for: .microseconds(Int.random(in: 0..<advertisingInterval)))
                    var timing = turn.swiftATT ? try await swiftATTConnection(turn.captured ? capturing : central)
                        : try await bumbleConnection(bumble, captured: turn.captured)
                    let ended = try await peripheral.next("disconnected")
                    timing.requests = ended["requests"] as? Int ?? 0
                    guard round >= warmup else { continue }
                    switch (turn.swiftATT, turn.captured) {
                    case (true, false): result.swiftATT.append(timing)
                    case (false, false): result.bumble.append(timing)
                    case (true, true): result.swiftATTCaptured.append(timing)
                    case (false, true): result.bumbleCaptured.append(timing)
                    }
                }
            }
        } catch {
            await central.close()
            await capturing.close()
            throw error
        }
        await central.close()
        await capturing.close()
        bumble.stop()
        result.swiftATTCapture = try BTSnoop.records(in: [UInt8](Data(contentsOf: URL(fileURLWithPath: swiftCapture))))
        result.bumbleCapture = try BTSnoop.records(in: [UInt8](Data(contentsOf: URL(fileURLWithPath: bumbleCapture))))
        return result
    }

    /// One swift-att connection: connect (the ATT_MTU exchange taken out of it, so that
    /// it returns at the LE Connection Complete as Bumble's does, then run as connect
    /// runs it), Device Name, the whole database, disconnect.
    static func swiftATTConnection(_ central: Central) async throws -> Timing {
        let start = wallMicroseconds()
        let clock = CPUClock.monotonicSeconds()
        let peer = try await central.connect(peripheralAddress, exchangeMTU: false)
        let link = CPUClock.monotonicSeconds() - clock
        _ = try await peer.exchangeMTU()
        let names = try await peer.read(using: deviceName)
        let usable = CPUClock.monotonicSeconds() - clock
        let database = try await peer.discoverDatabase()
        let discovered = CPUClock.monotonicSeconds() - clock
        try await peer.disconnect()
        guard !names.isEmpty else { throw ConnectionSetupBenchError.found("no Device Name") }
        let characteristics = database.services.flatMap(\.characteristics)
        return Timing(start: start, link: link, usable: usable, discovered: discovered,
                      found: [database.services.count, characteristics.count, characteristics.map(\.descriptors.count).reduce(0, +)])
    }

    /// One Bumble connection, timed by the script in its own process.
    static func bumbleConnection(_ bumble: BumbleHost, captured: Bool) async throws -> Timing {
        bumble.send(captured ? "run snoop" : "run")
        let line = try await bumble.next("result", timeout: .seconds(30))
        guard let start = (line["start"] as? NSNumber)?.int64Value, let link = line["link"] as? Double,
              let usable = line["usable"] as? Double, let discovered = line["discovered"] as? Double else {
            throw ConnectionSetupBenchError.found("a result line without its times: \(line)")
        }
        let found = ["services", "characteristics", "descriptors"].map { line[$0] as? Int ?? 0 }
        return Timing(start: start, link: link, usable: usable, discovered: discovered, found: found)
    }

    /// Microseconds since the Unix epoch on CLOCK_REALTIME: the clock both hosts stamp
    /// their btsnoop captures with.
    static func wallMicroseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec) * 1_000_000 + Int64(now.tv_nsec) / 1000
    }
}

extension ConnectionSetupBench {
    /// Where one connection's time went, from its central's capture: what the host
    /// did before the controller had the LE Create Connection, the controller's wait
    /// for the peer's next advertisement, and, once the link was up, the time some ATT
    /// request was outstanding (the controllers, TCP and the peer's server: not the
    /// central's doing) against the rest (the central host's own: from the LE
    /// Connection Complete to its first request, from each response to the next
    /// request, and from the last response to the application).
    struct Breakdown {
        /// Seconds from the start of connect to the LE Create Connection sent.
        var commandSent = 0.0
        /// Seconds from the start to the LE Connection Complete received.
        var linkUp = 0.0
        /// From the LE Connection Complete to the first ATT request sent.
        var toFirstRequest = 0.0
        /// Each ATT request's time outstanding, in order.
        var outstanding: [Double] = []
        /// Each gap from a response received to the next request sent.
        var turnarounds: [Double] = []
        /// From the last response received to the end point.
        var tail = 0.0
        /// Commands sent in the window other than LE Create Connection.
        var otherCommands: [HCIOpcode] = []

        var requests: Int { outstanding.count }
        var waiting: Double { outstanding.reduce(0, +) }
        /// The host's own time after the link was up.
        var hostAfterLink: Double { toFirstRequest + turnarounds.reduce(0, +) + tail }

        static let requestOpcodes: Set<ATTOpcode> = [
            .exchangeMTURequest, .findInformationRequest, .findByTypeValueRequest, .readByTypeRequest, .readRequest,
            .readBlobRequest, .readMultipleRequest, .readByGroupTypeRequest, .writeRequest, .prepareWriteRequest,
            .executeWriteRequest, .readMultipleVariableRequest,
        ]
        static let responseOpcodes: Set<ATTOpcode> = [
            .errorResponse, .exchangeMTUResponse, .findInformationResponse, .findByTypeValueResponse, .readByTypeResponse,
            .readResponse, .readBlobResponse, .readMultipleResponse, .readByGroupTypeResponse, .writeResponse,
            .prepareWriteResponse, .executeWriteResponse, .readMultipleVariableResponse,
        ]

        /// The breakdown of the connection that started at `start` (µs) and reached its
        /// end point at `end`, from the records of its central's capture.
        init(_ records: [BTSnoop.Record], from start: Int64, to end: Int64) throws {
            func seconds(_ a: Int64, _ b: Int64) -> Double { Double(b - a) / 1e6 }
            var linkUpAt: Int64?
            var requestAt: Int64?
            var lastResponseAt: Int64?
            for record in records where record.timestamp >= start && record.timestamp <= end {
                switch (record.packetType, record.direction) {
                case (.command, .sent):
                    let command = try HCICommandPacket(parsing: record.packet)
                    if command.opcode == LECreateConnection.opcode || command.opcode == LEExtendedCreateConnection.opcode {
                        commandSent = seconds(start, record.timestamp)
                    } else {
                        otherCommands.append(command.opcode)
                    }
                case (.event, .received):
                    guard linkUpAt == nil, case let .leMeta(meta) = try HCIEvent(parsing: record.packet) else { continue }
                    switch meta {
                    case .connectionComplete, .enhancedConnectionComplete, .enhancedConnectionCompleteV2:
                        linkUpAt = record.timestamp
                        linkUp = seconds(start, record.timestamp)
                    default:
                        break
                    }
                case (.aclData, let direction):
                    guard let opcode = try Self.attOpcode(record.packet), let linkUpAt else { continue }
                    if direction == .sent, Self.requestOpcodes.contains(opcode) {
                        if let lastResponseAt {
                            turnarounds.append(seconds(lastResponseAt, record.timestamp))
                        } else {
                            toFirstRequest = seconds(linkUpAt, record.timestamp)
                        }
                        requestAt = record.timestamp
                    } else if direction == .received, Self.responseOpcodes.contains(opcode), let sent = requestAt {
                        outstanding.append(seconds(sent, record.timestamp))
                        requestAt = nil
                        lastResponseAt = record.timestamp
                    }
                default:
                    break
                }
            }
            guard linkUpAt != nil, let lastResponseAt else {
                throw ConnectionSetupBenchError.found("no LE Connection Complete or no ATT response in a connection's capture")
            }
            tail = seconds(lastResponseAt, end)
        }

        /// The ATT opcode of an ACL packet that starts an L2CAP frame on the ATT fixed
        /// channel (every frame here fits one packet: BENCH.md quirk 10, and requests
        /// are short).
        static func attOpcode(_ packet: ArraySlice<UInt8>) throws -> ATTOpcode? {
            let acl = try ACLDataPacket(parsing: packet)
            guard acl.packetBoundary.isStart, acl.data.count > L2CAPHeader.length else { return nil }
            let channel = UInt16(acl.data[acl.data.startIndex + L2CAPHeader.channel])
                | UInt16(acl.data[acl.data.startIndex + L2CAPHeader.channel + 1]) << 8
            guard channel == L2CAPChannelIdentifier.attribute else { return nil }
            return acl.data.dropFirst(L2CAPHeader.length).first.map { ATTOpcode($0) }
        }

        /// The basic L2CAP header (Core 5.4 Vol 3 Part A §3.1): PDU length, then channel ID.
        private enum L2CAPHeader {
            static let channel = 2
            static let length = 4
        }
    }
}

/// A Bumble host run from Benchmarks/bumble_connect_benchmark.py, reporting JSON lines;
/// its standard error goes to the bench's log (never an unread pipe, BENCH.md).
final class BumbleHost {
    private let process = Process()
    private let stdin = Pipe()
    private let lines: JSONLineReader

    init(_ arguments: [String], log: URL) throws {
        let stdout = Pipe()
        process.executableURL = BumbleBench.python
        process.arguments = [ConnectionSetupBench.script.path] + arguments
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = try FileHandle(forWritingTo: log)
        lines = JSONLineReader(stdout, name: "bumble_connect_benchmark.py \(arguments[0])")
        try process.run()
    }

    func next(_ event: String, timeout: Duration = .seconds(20)) async throws -> [String: Any] {
        try await lines.next(event, timeout: timeout)
    }

    func send(_ line: String) {
        stdin.fileHandleForWriting.write(Data((line + "\n").utf8))
    }

    /// Closing standard input ends the script (it flushes its capture first).
    func stop() {
        try? stdin.fileHandleForWriting.close()
        process.end(grace: .seconds(2))
    }
}

enum ConnectionSetupBenchError: Error {
    case found(String)
}
