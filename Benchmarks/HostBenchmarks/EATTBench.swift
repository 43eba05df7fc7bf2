import SwiftATTCore
import SwiftATTGATT
import SwiftATTHCI
import SwiftATTHost
import SwiftATTL2CAP
import SwiftATTPDU
import SwiftATTTransport
import Synchronization

/// GATT procedures through two whole hosts, first over the one unenhanced ATT bearer,
/// then with Enhanced ATT bearers open beside it (Core 5.4 Vol 3 Part G §5.3.2), on
/// the same link: a swift-att central working through a swift-att peripheral's
/// database from several tasks at once. Every procedure crosses the GATT client's
/// bearer choice, the ATT bearers, L2CAP (fixed channel or credit-based), ACL, HCI and
/// the controller, and the server both ways.
///
/// The database: `services` services of `characteristics` characteristics, each with a
/// 16-octet value and a User Description descriptor, every other one also notifying
/// (so with a Client Characteristic Configuration descriptor). A unit of work is one
/// service: Discover All Characteristics of it, then Discover All Characteristic
/// Descriptors and Read Characteristic Value of each characteristic, one after the
/// other in one task (1 + 2 × characteristics procedures). `tasks` tasks take units
/// from one queue; procedures they start at once run one per free bearer.
/// Benchmarks/bumble_eatt_benchmark.py builds the same database and workload for Bumble.
struct EATTBench {
    /// One case: procedures completed, and the wall and process CPU time they took.
    struct Result {
        var procedures: Int
        var wallSeconds: Double
        var cpuSeconds: Double
        /// The process's voluntary context switches in the case (swift-att only).
        var contextSwitches: Int?

        var perSecond: Double { Double(procedures) / wallSeconds }
        var perCPUSecond: Double { Double(procedures) / cpuSeconds }

        static func median(_ results: [Result]) -> Result {
            results.sorted { $0.perCPUSecond < $1.perCPUSecond }[results.count / 2]
        }
    }

    static let services = 8
    static let characteristics = 8
    static let proceduresPerUnit = 1 + 2 * characteristics

    static func serviceUUID(_ s: Int) -> BluetoothUUID { BluetoothUUID(UInt16(0xEB10 + s)) }
    static func characteristicUUID(_ s: Int, _ c: Int) -> BluetoothUUID { BluetoothUUID(UInt16(0xEC00 + 16 * s + c)) }

    static func database() throws -> GATTDatabase {
        let built = (0..<services).map { s in
            GATTService(uuid: serviceUUID(s), characteristics: (0..<characteristics).map { c in
                GATTCharacteristic(uuid: characteristicUUID(s, c), properties: c % 2 == 0 ? [.read, .notify] : [.read],
                                   value: .bytes((0..<16).map { UInt8(truncatingIfNeeded: s * 16 + c + $0) }),
                                   descriptors: [.userDescription("service \(s) value \(c)")])
            })
        }
        return try GATTDatabase(services: built, genericAccess: GATTGenericAccess(deviceName: "eatt-bench", appearance: 0),
                                serverFeatures: [.enhancedATT])
    }

    let peripheral: Peripheral
    let central: Central
    let peer: Peer
    let workload: [GATTClient.Service]

    /// Two hosts on the given controllers, connected (ATT_MTU 517 on the unenhanced
    /// bearer), paired (Just Works: the Enhanced bearers need an encrypted link, and
    /// both cases run on the same one), the services discovered.
    static func start(peripheral: TransportSpecification, central: TransportSpecification, capturePath: String? = nil) async throws -> EATTBench {
        let p = try await Peripheral.start(transport: peripheral, database: database())
        try await p.controller.configureSecurity(SecurityConfiguration(), delegate: AutomaticPairingDelegate())
        try await p.startAdvertising(data: [0x02, 0x01, 0x06], interval: .milliseconds(20))
        let c = try await Central.start(transport: central, capturePath: capturePath)
        try await c.controller.configureSecurity(SecurityConfiguration(), delegate: AutomaticPairingDelegate())
        let peer = try await c.connect(p.info.randomAddress)
        try await peer.pair()
        let wanted = Set((0..<services).map(serviceUUID))
        let workload = try await peer.discoverServices().filter { wanted.contains($0.uuid) }
        guard workload.count == services else { throw EATTBenchError.found("\(workload.count) of \(services) services") }
        return EATTBench(peripheral: p, central: c, peer: peer, workload: workload)
    }

    /// Opens `count` Enhanced bearers beside the unenhanced one.
    func openBearers(_ count: Int) async throws {
        let opened = try await peer.openEnhancedBearers(count)
        guard opened == count else { throw EATTBenchError.found("\(opened) of \(count) Enhanced bearers") }
    }

    /// `units` units from `tasks` tasks, after `warmup` untimed units.
    func run(tasks: Int, units: Int, warmup: Int) async throws -> Result {
        _ = try await work(tasks: tasks, units: warmup)
        let startWall = CPUClock.monotonicSeconds()
        let startCPU = CPUClock.seconds()
        let startSwitches = CPUClock.voluntaryContextSwitches()
        let procedures = try await work(tasks: tasks, units: units)
        return Result(procedures: procedures, wallSeconds: CPUClock.monotonicSeconds() - startWall,
                      cpuSeconds: CPUClock.seconds() - startCPU,
                      contextSwitches: CPUClock.voluntaryContextSwitches() - startSwitches)
    }

    private func work(tasks: Int, units: Int) async throws -> Int {
        let queue = UnitQueue(units: units)
        return try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<tasks {
                group.addTask { [peer, workload] in
                    var procedures = 0
                    while let unit = queue.take() {
                        let found = try await peer.discoverCharacteristics(of: workload[unit % workload.count])
                        guard found.count == Self.characteristics else {
                            throw EATTBenchError.found("\(found.count) of \(Self.characteristics) characteristics")
                        }
                        for characteristic in found {
                            _ = try await peer.discoverDescriptors(of: characteristic)
                            _ = try await peer.read(characteristic)
                        }
                        procedures += 1 + 2 * found.count
                    }
                    return procedures
                }
            }
            var total = 0
            for try await procedures in group { total += procedures }
            return total
        }
    }

    /// The median wall time of `times` whole-database discoveries (`discoverDatabase()`:
    /// 1 + services × (2 + characteristics) procedures and more, which runs each step's
    /// procedures at once when Enhanced bearers are open), after one untimed.
    func discoverWhole(times: Int) async throws -> Double {
        let expected = Self.services * Self.characteristics
        var seconds: [Double] = []
        for round in 0...times {
            let start = CPUClock.monotonicSeconds()
            let database = try await peer.discoverDatabase()
            let elapsed = CPUClock.monotonicSeconds() - start
            let found = (0..<Self.services).reduce(0) { sum, s in
                sum + (database.services.first { $0.service.uuid == Self.serviceUUID(s) }?.characteristics.count ?? 0)
            }
            guard found == expected else { throw EATTBenchError.found("\(found) of \(expected) characteristics discovered") }
            if round > 0 { seconds.append(elapsed) }
        }
        return seconds.sorted()[seconds.count / 2]
    }

    func stop() async {
        await central.close()
        await peripheral.close()
    }

    /// The ATT requests of the workload's kinds (Read By Type, Find Information, Read)
    /// in a central's capture of one `start`, one `run` without warm-up, `openBearers`
    /// and another `run`: those sent before the first Credit Based Connection Request
    /// (the one-bearer case) and after it, on any bearer (the Enhanced case). How many
    /// round trips the procedures took, to set beside the count Bumble's server keeps.
    static func workloadRequests(inCapture file: [UInt8]) throws -> (oneBearer: Int, enhanced: Int) {
        let workloadKinds: Set<ATTOpcode> = [.readByTypeRequest, .findInformationRequest, .readRequest]
        var counts = (oneBearer: 0, enhanced: 0)
        var bearersOpened = false
        for record in try BTSnoop.records(in: file) where record.packetType == .aclData && record.direction == .sent {
            let acl = try ACLDataPacket(parsing: record.packet)
            // Every packet here is a whole L2CAP frame (none is longer than the ACL buffer).
            guard acl.packetBoundary.isStart, acl.data.count > L2CAPHeader.length else { continue }
            let channel = UInt16(acl.data[acl.data.startIndex + L2CAPHeader.channel])
                | UInt16(acl.data[acl.data.startIndex + L2CAPHeader.channel + 1]) << 8
            let payload = acl.data.dropFirst(L2CAPHeader.length)
            switch channel {
            case L2CAPChannelIdentifier.leSignaling:
                if payload.first == LESignalingCode.creditBasedConnectionRequest.rawValue { bearersOpened = true }
            case L2CAPChannelIdentifier.attribute:
                if let opcode = payload.first, workloadKinds.contains(ATTOpcode(opcode)) {
                    if bearersOpened { counts.enhanced += 1 } else { counts.oneBearer += 1 }
                }
            case L2CAPChannelIdentifier.leDynamicRange:
                // A K-frame: the SDU length, then the ATT PDU.
                if let opcode = payload.dropFirst(KFrame.Field.sduLength.count).first, workloadKinds.contains(ATTOpcode(opcode)) {
                    counts.enhanced += 1
                }
            default:
                break
            }
        }
        return counts
    }

    /// The basic L2CAP header (Core 5.4 Vol 3 Part A §3.1): PDU length, then channel ID.
    private enum L2CAPHeader {
        static let channel = 2
        static let length = 4
    }
}

/// The units of work left, taken one at a time by the tasks.
private final class UnitQueue: Sendable {
    private let next = Atomic<Int>(0)
    private let units: Int

    init(units: Int) { self.units = units }

    func take() -> Int? {
        let unit = next.wrappingAdd(1, ordering: .relaxed).oldValue
        return unit < units ? unit : nil
    }
}

enum EATTBenchError: Error {
    case found(String)
}
