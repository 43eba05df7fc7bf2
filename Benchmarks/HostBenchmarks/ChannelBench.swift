import SwiftATTGATT
import SwiftATTHost
import SwiftATTL2CAP
import SwiftATTTransport
import Synchronization

/// Credit-based channel throughput through two whole hosts: a swift-att peripheral
/// listening on an SPSM, a swift-att central opening `channels` channels to it on one
/// link, each writing `octetsPerChannel` in SDUs of `sduLength` as fast as the credits
/// allow, the peripheral's readers taking every SDU (so the credits come back as an
/// application reads). Every octet crosses the channel machines, L2CAP segmentation and
/// reassembly, ACL flow control, HCI, the controller and the SDU streams both ways.
struct ChannelBench {
    /// One run: octets delivered to the readers, and the wall and process CPU time
    /// from the first write to the last SDU read.
    struct Result {
        var octets: Int
        var wallSeconds: Double
        var cpuSeconds: Double
        var creditStalls: Int

        var megabytesPerSecond: Double { Double(octets) / 1e6 / wallSeconds }
        var megabytesPerCPUSecond: Double { Double(octets) / 1e6 / cpuSeconds }
    }

    static let psm: SPSM = 0x0080

    static func run(peripheral: TransportSpecification, central: TransportSpecification, channels count: Int,
                    sduLength: Int, octetsPerChannel: Int, parameters: L2CAPChannelParameters) async throws -> Result {
        let database = try GATTDatabase(services: [], genericAccess: GATTGenericAccess(deviceName: "bench", appearance: 0))
        let p = try await Peripheral.start(transport: peripheral, database: database)
        let listener = try await p.controller.listen(on: psm, parameters: parameters)
        try await p.startAdvertising(data: [0x02, 0x01, 0x06], interval: .milliseconds(20))
        let c = try await Central.start(transport: central)
        let peer = try await c.connect(p.info.randomAddress)
        var senders: [L2CAPChannel] = []
        var receivers: [L2CAPChannel] = []
        var accepted = listener.makeAsyncIterator()
        for _ in 0..<count {
            senders.append(try await peer.openChannel(psm: psm, parameters: parameters))
            guard let channel = await accepted.next() else { throw ChannelBenchError.noChannel }
            receivers.append(channel)
        }
        let sdusPerChannel = (octetsPerChannel + sduLength - 1) / sduLength
        let sdu = [UInt8](repeating: 0x5A, count: sduLength)
        let startWall = CPUClock.monotonicSeconds()
        let startCPU = CPUClock.seconds()
        let octets = try await withThrowingTaskGroup(of: Int.self) { group in
            for channel in receivers {
                group.addTask {
                    var octets = 0
                    var sdus = 0
                    for try await received in channel.sdus {
                        octets += received.count
                        sdus += 1
                        if sdus == sdusPerChannel { break }
                    }
                    return octets
                }
            }
            for channel in senders {
                group.addTask {
                    for _ in 0..<sdusPerChannel { try await channel.send(sdu) }
                    return 0
                }
            }
            var total = 0
            for try await octets in group { total += octets }
            return total
        }
        let wall = CPUClock.monotonicSeconds() - startWall
        let cpu = CPUClock.seconds() - startCPU
        var stalls = 0
        for channel in senders { stalls += await channel.statistics?.creditStalls ?? 0 }
        await c.close()
        await p.close()
        return Result(octets: octets, wallSeconds: wall, cpuSeconds: cpu, creditStalls: stalls)
    }
}

enum ChannelBenchError: Error {
    case noChannel
}
