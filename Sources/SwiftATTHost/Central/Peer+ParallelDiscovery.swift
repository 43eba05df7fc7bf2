import SwiftATTGATT

extension Peer {
    /// The discovery `GATTClient.DiscoverDatabase` runs, step for step and with the same
    /// result, but with each step's procedures asked for at once: the included services
    /// of every service found so far, then the characteristics of every service, then the
    /// descriptors of every characteristic with room for some. Over Enhanced ATT bearers
    /// they run side by side, one per free bearer (Core 5.4 Vol 3 Part G §3.3.2), so a
    /// database of many services is discovered in about as many round trips as its
    /// largest step has procedures per bearer, not as it has procedures. Included
    /// services go in waves: a secondary service one wave finds is searched in the next,
    /// and services are recorded in the order the one-bearer discovery records them.
    func discoverDatabaseInParallel(range: ClosedRange<UInt16>) async throws(GATTClientError) -> GATTClientDatabase {
        let services = try await run { mtu in GATTClient.DiscoverPrimaryServices(range: range, mtu: mtu) }
        var records = services.map { GATTClientDatabase.ServiceRecord(service: $0) }
        var searched = 0
        while searched < records.count {
            let wave = records[searched...].map(\.service)
            let included = try await concurrently(wave) { service throws(GATTClientError) in
                try await self.run { mtu in GATTClient.FindIncludedServices(service: service, mtu: mtu) }
            }
            for (offset, found) in included.enumerated() {
                records[searched + offset].includedServices = found
                // As DiscoverDatabase does: an included service that overlaps none known
                // so far is a secondary service, searched in turn.
                for include in found where !records.contains(where: { $0.service.handles.overlaps(include.handles) }) {
                    records.append(GATTClientDatabase.ServiceRecord(
                        service: GATTClient.Service(uuid: include.uuid, handles: include.handles, isPrimary: false)))
                }
            }
            searched += wave.count
        }
        let characteristics = try await concurrently(records.map(\.service)) { service throws(GATTClientError) in
            try await self.run { mtu in GATTClient.DiscoverCharacteristics(service: service, mtu: mtu) }
        }
        for (index, found) in characteristics.enumerated() {
            records[index].characteristics = found.map { GATTClientDatabase.CharacteristicRecord(characteristic: $0) }
        }
        var withRoom: [(service: Int, characteristic: Int)] = []
        for (s, record) in records.enumerated() {
            for (c, entry) in record.characteristics.enumerated() where entry.characteristic.descriptorHandles != nil {
                withRoom.append((s, c))
            }
        }
        let descriptors = try await concurrently(withRoom.map { records[$0.service].characteristics[$0.characteristic].characteristic }) {
            characteristic throws(GATTClientError) in
            try await self.run { mtu in GATTClient.DiscoverAllCharacteristicDescriptors(characteristic: characteristic, mtu: mtu) }
        }
        for (place, found) in zip(withRoom, descriptors) {
            records[place.service].characteristics[place.characteristic].descriptors = found
        }
        return GATTClientDatabase(services: records)
    }

    /// A database discovery over `range`: in parallel when Enhanced ATT bearers are open,
    /// as the one procedure otherwise (where parallel requests would only queue).
    func discover(range: ClosedRange<UInt16>) async throws(GATTClientError) -> GATTClientDatabase {
        if await enhancedBearerMTUs.isEmpty {
            return try await run { mtu in GATTClient.DiscoverDatabase(range: range, mtu: mtu) }
        }
        return try await discoverDatabaseInParallel(range: range)
    }
}
