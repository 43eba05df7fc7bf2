#if canImport(Glibc)
import Glibc
#endif
import BenchSupport
import Foundation
import SwiftATTAdvertising
import SwiftATTCore
import SwiftATTGATT
import SwiftATTHost
import SwiftATTTransport
import Testing

/// The bench's Bumble peer stopped by Ctrl-C, as someone following the walk-through
/// (Documentation/CLI.md, "Run a peripheral")
/// stops it: it disconnects first and exits without a traceback, so Bumble's controller
/// (which has no supervision timeout, and would otherwise keep the dead link and refuse
/// every later connect with Command Disallowed) takes the next connection.
@Suite struct BumblePeerInterruptTests {
    @Test func ctrlCDisconnectsFirstAndTheControllerTakesTheNextConnection() async throws {
        let bench = try await BumbleBench(controllers: 2)
        defer { bench.stop() }
        let database = try GATTDatabase(services: [], genericAccess: GATTGenericAccess(deviceName: "ctrl-c", appearance: 0))
        // One central at a time: advertising comes back only once the first link is gone.
        let peripheral = try await Peripheral.start(transport: try TransportSpecification(parsing: bench.transports[0]),
                                                    database: database, readvertising: .upTo(connections: 1))
        defer { Task { await peripheral.close() } }
        var advertisement = AdvertisingDataBuilder()
        try advertisement.append(.flags(.leGeneralDiscoverableLEOnly))
        let events = peripheral.events()
        try await peripheral.startAdvertising(data: advertisement.advertisingData.encoded(), interval: .milliseconds(20))
        let target = peripheral.info.randomAddress.description

        let first = try BumblePeer(bench: bench, controller: 1, address: "C0:B0:00:00:00:21", arguments: ["central", "--target", target])
        _ = try await first.next("discovered")
        kill(first.process.processIdentifier, SIGINT)
        let ending = try await first.collect(until: "done")
        #expect(ending.contains { $0["event"] as? String == "disconnected-on-exit" })
        #expect(ending.last?["reason"] as? String == "SIGINT")
        first.process.waitUntilExit()
        #expect(first.process.terminationStatus == 0)
        #expect(!(try String(contentsOf: bench.logURL, encoding: .utf8)).contains("Traceback"))

        // The peripheral saw the link go, and the same controller connects again.
        var iterator = events.makeAsyncIterator()
        while let event = await iterator.next() {
            if case .disconnected = event { break }
        }
        let second = try BumblePeer(bench: bench, controller: 1, address: "C0:B0:00:00:00:22", arguments: ["central", "--target", target])
        defer { second.stop() }
        _ = try await second.next("connected")
    }
}
