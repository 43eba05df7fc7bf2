import BluetoothCore
import GATT
import Host
import Synchronization
import Transport

/// swift-att as the central of the soak: connects to `count` peripherals advertising the
/// soak service, subscribes to both characteristics of each, and checks every sequence
/// for `duration`.
enum SoakCentral {
    static func run(transport: TransportSpecification, count: Int, duration: Duration) async throws -> Int32 {
        let central = try await Central.start(transport: transport)
        var addresses: [BluetoothAddress] = []
        let scan = central.scan(services: [SoakProfile.service])
        for try await device in scan where !addresses.contains(device.address) {
            addresses.append(device.address)
            if addresses.count == count { break }
        }
        let start = (rss: ProcessFigures.residentKiB(), fds: ProcessFigures.openDescriptors())
        let checks = Checks()
        var readers: [Task<Void, Never>] = []
        var failures: [String] = []
        for address in addresses {
            let peer = try await central.connect(address)
            let database = try await peer.discoverDatabase()
            for uuid in [SoakProfile.notified, SoakProfile.indicated] {
                guard let characteristic = database.characteristics(uuid: uuid).first else {
                    failures.append("\(address) has no \(uuid)")
                    continue
                }
                let key = "\(address)/\(uuid == SoakProfile.notified ? "notified" : "indicated")"
                let values = try await peer.notifications(of: characteristic)
                readers.append(read(values, into: checks, as: key))
            }
        }
        emit("{\"event\":\"streaming\",\"links\":\(addresses.count),\"rssKiB\":\(start.rss),\"fds\":\(start.fds)}")
        try await Task.sleep(for: duration / 2)
        let middle = (rss: ProcessFigures.residentKiB(), fds: ProcessFigures.openDescriptors())
        try await Task.sleep(for: duration / 2)
        let finish = (rss: ProcessFigures.residentKiB(), fds: ProcessFigures.openDescriptors())
        let results = checks.state.withLock { $0 }
        for (key, check) in results.sorted(by: { $0.key < $1.key }) {
            emit("{\"event\":\"stream\",\"stream\":\"\(key)\",\"check\":\(check.json)}")
        }
        let total = results.values.reduce(into: SequenceCheck()) { sum, c in
            sum.received += c.received
            sum.lost += c.lost
            sum.duplicated += c.duplicated
            sum.reordered += c.reordered
        }
        emit("{\"event\":\"done\",\"streams\":\(results.count),\"received\":\(total.received),\"lost\":\(total.lost),"
              + "\"duplicated\":\(total.duplicated),\"reordered\":\(total.reordered),\"failures\":\(failures.count),"
              + "\"rssStartKiB\":\(start.rss),\"rssMiddleKiB\":\(middle.rss),\"rssEndKiB\":\(finish.rss),"
              + "\"fdsStart\":\(start.fds),\"fdsEnd\":\(finish.fds)}")
        for reader in readers { reader.cancel() }
        await central.close()
        let clean = total.lost == 0 && total.duplicated == 0 && total.reordered == 0 && failures.isEmpty
            && results.count == 2 * count && results.values.allSatisfy { $0.received > 0 }
        return clean ? 0 : 1
    }

    /// The checks of every stream, shared by their readers.
    final class Checks: Sendable {
        let state = Mutex<[String: SequenceCheck]>([:])
    }

    static func read(_ values: AsyncThrowingStream<GATTNotification, any Error>, into checks: Checks, as key: String) -> Task<Void, Never> {
        Task {
            do {
                for try await value in values {
                    guard let sequence = SoakProfile.sequence(value.value) else { continue }
                    checks.state.withLock { $0[key, default: SequenceCheck()].take(sequence) }
                }
            } catch {}
        }
    }
}
