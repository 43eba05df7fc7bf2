import SwiftATTGATT
import SwiftATTHost

/// What `central discover` read from a database: each readable characteristic's value
/// and each descriptor's value by handle, and, for a read the server refused or that
/// failed, why — shown in the tree in the value's place.
struct DiscoveredValues: Sendable {
    var values: [UInt16: [UInt8]] = [:]
    var failures: [UInt16: GATTClientError] = [:]

    /// At most this many descriptors are read in one discovery, so a database with
    /// thousands of descriptors does not hold the tree back for minutes.
    static let descriptorLimit = 256

    /// Every readable characteristic's value and every descriptor's value (up to
    /// `descriptorLimit`), in handle order. The link's bearers each carry one read at a
    /// time: with Enhanced ATT bearers open, as many reads run at once as there are
    /// bearers; without, one after another. A refused read is kept as its error; a read
    /// that ends the bearer or the link (a transaction timeout, a disconnection) is kept
    /// too, and no further read is started, since none could be answered.
    static func read(_ database: GATTClientDatabase, from peer: Peer) async -> DiscoveredValues {
        enum Target: Sendable {
            case characteristic(GATTClient.Characteristic)
            case descriptor(GATTClient.Descriptor)
        }
        var targets: [Target] = []
        var descriptors = 0
        for record in database.services.flatMap(\.characteristics) {
            if record.characteristic.properties.contains(.read) { targets.append(.characteristic(record.characteristic)) }
            for descriptor in record.descriptors where descriptors < descriptorLimit {
                targets.append(.descriptor(descriptor))
                descriptors += 1
            }
        }
        let bearers = 1 + (await peer.enhancedBearerMTUs.count)
        return await withTaskGroup(of: (UInt16, Result<[UInt8], GATTClientError>).self) { group in
            var read = DiscoveredValues()
            var next = targets.makeIterator()
            var linkEnded = false
            func start() -> Bool {
                guard !linkEnded, let target = next.next() else { return false }
                group.addTask {
                    do throws(GATTClientError) {
                        switch target {
                        case let .characteristic(c): return (c.valueHandle, .success(try await peer.read(c)))
                        case let .descriptor(d): return (d.handle, .success(try await peer.read(d)))
                        }
                    } catch {
                        switch target {
                        case let .characteristic(c): return (c.valueHandle, .failure(error))
                        case let .descriptor(d): return (d.handle, .failure(error))
                        }
                    }
                }
                return true
            }
            for _ in 0..<bearers where !start() { break }
            while let (handle, result) = await group.next() {
                switch result {
                case let .success(value):
                    read.values[handle] = value
                case let .failure(error):
                    read.failures[handle] = error
                    if endsTheLink(error) { linkEnded = true }
                }
                _ = start()
            }
            return read
        }
    }

    /// After these no read on the link can be answered.
    static func endsTheLink(_ error: GATTClientError) -> Bool {
        switch error {
        case .timedOut, .disconnected, .bearer, .cancelled: return true
        default: return false
        }
    }

    /// `Insufficient Encryption (0x0f)` for a refusal, a short reason for a read that
    /// went unanswered (the tree is no place for the client's advice on reconnecting),
    /// the client's sentence otherwise.
    static func reason(_ error: GATTClientError) -> String {
        switch error {
        case let .attributeError(code, _, _): return code.description
        case .timedOut: return "no answer within the ATT transaction timeout (30 s); no more values read"
        default: return error.description
        }
    }
}
