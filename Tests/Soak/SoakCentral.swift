import SwiftATTCore
import SwiftATTGATT
import SwiftATTHost

/// swift-att as the central of the soak: connects to `links` peripherals advertising the
/// soak service, one after another, subscribes to both characteristics of each, and
/// checks every value for `duration`. Then it unsubscribes: once the descriptor write is
/// answered, every value the peripheral sent before it has arrived (one link delivers
/// in order), so the last value received must be the last one the peripheral counted as
/// sent. It then ends the links, which ends the value streams and tells each peripheral
/// to report its counts.
enum SoakCentral {
    /// One subscribed stream and the task checking it.
    struct Stream {
        let name: String
        let characteristic: GATTClient.Characteristic
        let checker: Task<SequenceCheck, Never>
    }

    static func run(_ options: SoakOptions) async throws -> Int32 {
        let central = try await Central.start(transport: options.transport, capturePath: options.capturePath)
        let count = options.links
        let addresses = try await within(.seconds(30), "finding \(count) soak peripherals") {
            var found: [BluetoothAddress] = []
            for try await device in central.scan(services: [SoakProfile.service]) where !found.contains(device.address) {
                found.append(device.address)
                if found.count == count { break }
            }
            return found
        }
        var links: [(peer: Peer, streams: [Stream])] = []
        for address in addresses {
            let peer = try await central.connect(address)
            let database = try await peer.discoverDatabase()
            var streams: [Stream] = []
            for (uuid, kind) in [(SoakProfile.notified, "notified"), (SoakProfile.indicated, "indicated")] {
                guard let characteristic = database.characteristics(uuid: uuid).first else {
                    throw SoakError(description: "\(address) has no \(kind) characteristic \(uuid)")
                }
                let values = try await peer.notifications(of: characteristic)
                streams.append(Stream(name: "\(address)/\(kind)", characteristic: characteristic, checker: check(values)))
            }
            links.append((peer, streams))
        }
        let watch = ResourceWatch.start(warmUp: options.warmUp)
        emit("{\"event\":\"streaming\",\"links\":\(links.count)}")
        // The soak's length: the links stream (checked as values arrive) for the whole
        // --duration; nothing is awaited here.
        try await Task.sleep(for: options.duration)

        var failures: [String] = []
        for link in links {
            do {
                for stream in link.streams { try await link.peer.setNotify([], for: stream.characteristic) }
                try await link.peer.disconnect()
            } catch {
                failures.append("ending \(link.peer.address): \(error)")
            }
        }
        var checks: [(name: String, check: SequenceCheck)] = []
        for stream in links.flatMap(\.streams) {
            let checker = stream.checker
            // A link that failed to go down leaves its stream open: give up on it.
            let check = try? await within(.seconds(10), "the end of \(stream.name)") {
                await withTaskCancellationHandler { await checker.value } onCancel: { checker.cancel() }
            }
            guard let check else {
                failures.append("\(stream.name) did not end")
                continue
            }
            checks.append((stream.name, check))
            emit("{\"event\":\"stream\",\"stream\":\"\(stream.name)\",\"check\":\(check.json)}")
            if !check.isClean { failures.append("\(stream.name): values lost, repeated, out of order or missing") }
        }
        let figures = watch.finish()
        failures += figures.failures(rssGrowthLimitKiB: options.rssGrowthLimitKiB, heapGrowthLimitKiB: options.heapGrowthLimitKiB)
        if links.count != count { failures.append("\(links.count) links of \(count)") }
        let total = SequenceCheck.total(checks.map(\.check))
        emit("{\"event\":\"done\",\"links\":\(links.count),\"streams\":\(checks.count),\"received\":\(total.received),"
             + "\"lost\":\(total.lost),\"duplicated\":\(total.duplicated),\"reordered\":\(total.reordered),"
             + "\(figures.json),\"failures\":\(quoted(failures))}")
        await central.close()
        return failures.isEmpty ? 0 : 1
    }

    /// Checks every value of `values` until the stream ends (the link went down).
    static func check(_ values: GATTNotificationStream) -> Task<SequenceCheck, Never> {
        Task {
            var check = SequenceCheck()
            do {
                for try await value in values {
                    check.take(SoakProfile.sequence(value.value) ?? 0)
                }
            } catch {}
            return check
        }
    }
}
