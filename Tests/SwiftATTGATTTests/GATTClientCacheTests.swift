import SwiftATTPDU
import SwiftATTCore
import SwiftATTGATT
import Testing

/// The client's cache of a server's database: lookups, invalidation by range, Service
/// Changed end to end, and the Database Hash check. Core 5.4 Vol 3 Part G §2.5.2, §7.1,
/// §7.3.
@Suite("GATT client: cache, Service Changed, Database Hash")
struct GATTClientCacheTests {
    typealias Fixture = GATTClientFixture

    @Test("lookups by UUID and by handle")
    func lookups() throws {
        let fixture = try Fixture()
        var link = GATTClientTestLink(fixture.database)
        let cache = try link.run(GATTClient.DiscoverDatabase(mtu: 23)).get()

        let hr = fixture.database.handles(of: fixture.heartRate)!
        #expect(cache.services(uuid: BluetoothUUID(0x180D)).map(\.handles) == [hr])
        #expect(cache.services(uuid: BluetoothUUID(0x180D).widened).map(\.handles) == [hr], "UUIDs compare by value")
        #expect(cache.services(uuid: BluetoothUUID(0xABCD)) == [])
        #expect(cache.characteristics(uuid: BluetoothUUID(0x2A38)).map(\.valueHandle) == [fixture.valueHandle(fixture.location)])
        let custom = try #require(cache.services(uuid: Fixture.customServiceUUID).first)
        #expect(cache.characteristics(uuid: BluetoothUUID(0x2A38), in: custom) == [])
        #expect(cache.characteristics(uuid: Fixture.customUUID(1), in: custom).map(\.valueHandle) == [fixture.valueHandle(fixture.long)])

        #expect(cache.service(containing: hr.lowerBound)?.service.uuid == BluetoothUUID(0x180D))
        #expect(cache.service(containing: hr.upperBound)?.service.uuid == BluetoothUUID(0x180D))
        #expect(cache.service(containing: 0x0001)?.service.uuid == BluetoothUUID(0x1800))
        #expect(cache.service(containing: 0xFFFF) == nil)
        #expect(cache.service(containing: 0x0000) == nil)

        let measurement = fixture.valueHandle(fixture.measurement)
        #expect(cache.characteristic(valueHandle: measurement)?.uuid == BluetoothUUID(0x2A37))
        #expect(cache.characteristic(valueHandle: measurement + 1) == nil, "that is its CCCD")
        #expect(cache.characteristic(containing: measurement + 1)?.characteristic.uuid == BluetoothUUID(0x2A37))
        #expect(cache.descriptor(at: measurement + 1) == .init(handle: measurement + 1, uuid: BluetoothUUID(0x2902)))
        #expect(cache.descriptor(at: measurement) == nil)
        let characteristic = try #require(cache.characteristic(valueHandle: measurement))
        #expect(cache.descriptors(of: characteristic).map(\.uuid) == [BluetoothUUID(0x2902)])
        #expect(cache.clientConfigurationHandle(of: characteristic) == measurement + 1)
        #expect(cache.serviceChangedValueHandle == 0x0008)
    }

    @Test("inserting a service replaces those it overlaps; invalidation widens to whole services")
    func insertAndInvalidate() {
        func record(_ uuid: UInt16, _ handles: ClosedRange<UInt16>) -> GATTClientDatabase.ServiceRecord {
            .init(service: .init(uuid: BluetoothUUID(uuid), handles: handles))
        }
        var cache = GATTClientDatabase(services: [record(0x1802, 0x0010...0x0019), record(0x1800, 0x0001...0x0005), record(0x1801, 0x0006...0x000F)],
                                       databaseHash: [1, 2, 3])
        #expect(cache.services.map(\.service.uuid) == [BluetoothUUID(0x1800), BluetoothUUID(0x1801), BluetoothUUID(0x1802)])
        let replaced = cache.insert(record(0x180F, 0x0004...0x0008))
        #expect(replaced.map(\.service.uuid) == [BluetoothUUID(0x1800), BluetoothUUID(0x1801)])
        #expect(cache.services.map(\.service.uuid) == [BluetoothUUID(0x180F), BluetoothUUID(0x1802)])

        let invalidation = cache.invalidate(0x0012...0x0013)
        #expect(invalidation.changedRange == 0x0012...0x0013)
        #expect(invalidation.removedServices.map(\.service.uuid) == [BluetoothUUID(0x1802)])
        #expect(invalidation.rediscoveryRange == 0x0010...0x0019)
        #expect(cache.services.map(\.service.uuid) == [BluetoothUUID(0x180F)])
        #expect(cache.databaseHash == nil)

        let nothing = cache.invalidate(0x0100...0x0200)
        #expect(nothing.removedServices == [])
        #expect(nothing.rediscoveryRange == 0x0100...0x0200)
    }

    @Test("Service Changed end to end: subscribe, the server changes, invalidate, rediscover the range, equal to the new database")
    func serviceChanged() throws {
        let fixture = try Fixture()
        var link = GATTClientTestLink(fixture.database)
        var cache = try link.run(GATTClient.DiscoverDatabase(mtu: 23)).get()
        let changedHandle = try #require(cache.serviceChangedValueHandle)
        let changed = try #require(cache.characteristic(valueHandle: changedHandle))
        let cccd = try #require(cache.clientConfigurationHandle(of: changed))
        #expect(throws: Never.self) {
            try link.run(GATTClient.WriteClientCharacteristicConfiguration(changed, descriptorHandle: cccd, configuration: .indication, mtu: 23)).get()
        }

        // The server gains a characteristic in the heart-rate service: everything from
        // there on moves.
        let new = try Fixture(extraHeartRateCharacteristic: true)
        let start = new.database.handles(of: new.heartRate)!.lowerBound
        try link.push(link.server.replaceDatabase(new.database, changedRange: start...0xFFFF))
        let indication = try #require(link.indications.first)
        #expect(indication.handle == changedHandle)
        #expect(cache.characteristic(valueHandle: indication.handle)?.uuid == BluetoothUUID(0x2A05))

        let invalidation = try #require(try cache.applyServiceChanged(handle: indication.handle, value: indication.value))
        #expect(invalidation.changedRange == start...0xFFFF)
        #expect(invalidation.removedServices.map(\.service.uuid)
            == [BluetoothUUID(0x180D), BluetoothUUID(0x180F), Fixture.customServiceUUID, Fixture.secondaryServiceUUID])
        #expect(invalidation.removedCharacteristics.contains { $0.uuid == BluetoothUUID(0x2A37) })
        #expect(invalidation.rediscoveryRange == start...0xFFFF)
        #expect(cache.services.map(\.service.uuid) == [BluetoothUUID(0x1800), BluetoothUUID(0x1801)], "GAP and GATT are untouched")

        let rediscovered = try link.run(GATTClient.DiscoverDatabase(range: invalidation.rediscoveryRange, mtu: 23)).get()
        cache.merge(rediscovered)
        #expect(cache == Fixture.expected(new.database))
        #expect(cache.characteristics(uuid: BluetoothUUID(0x2A3F)).count == 1)
    }

    @Test("Service Changed inside one service invalidates that service only")
    func serviceChangedPartly() throws {
        let fixture = try Fixture()
        var link = GATTClientTestLink(fixture.database)
        var cache = try link.run(GATTClient.DiscoverDatabase(mtu: 23)).get()
        let hr = fixture.database.handles(of: fixture.heartRate)!
        var value: [UInt8] = []
        value.append(littleEndian: hr.lowerBound + 2)
        value.append(littleEndian: hr.lowerBound + 3)
        let invalidation = try #require(try cache.applyServiceChanged(handle: 0x0008, value: value))
        #expect(invalidation.removedServices.map(\.service.uuid) == [BluetoothUUID(0x180D)])
        #expect(invalidation.rediscoveryRange == hr)
        let again = try link.run(GATTClient.DiscoverDatabase(range: invalidation.rediscoveryRange, mtu: 23)).get()
        #expect(again.services.map(\.service.uuid) == [BluetoothUUID(0x180D)])
        cache.merge(again)
        #expect(cache == Fixture.expected(fixture.database))
    }

    @Test("an indication of another characteristic is not Service Changed; malformed ranges are refused")
    func serviceChangedEdges() throws {
        let fixture = try Fixture()
        var link = GATTClientTestLink(fixture.database)
        var cache = try link.run(GATTClient.DiscoverDatabase(mtu: 23)).get()
        let before = cache
        #expect(try cache.applyServiceChanged(handle: fixture.valueHandle(fixture.both), value: [1, 0, 2, 0]) == nil)
        #expect(throws: GATTClientError.malformedResponse(.invalidValueLength(.handleValueIndication, handle: 0x0008, length: 3, expected: [4]))) {
            try cache.applyServiceChanged(handle: 0x0008, value: [1, 0, 2])
        }
        #expect(throws: GATTClientError.malformedResponse(.invalidGroup(.handleValueIndication, start: 0x0010, end: 0x0005))) {
            try cache.applyServiceChanged(handle: 0x0008, value: [0x10, 0, 0x05, 0])
        }
        #expect(throws: GATTClientError.malformedResponse(.invalidGroup(.handleValueIndication, start: 0x0000, end: 0xFFFF))) {
            try cache.applyServiceChanged(handle: 0x0008, value: [0, 0, 0xFF, 0xFF])
        }
        #expect(cache == before)
        // Everything changed: everything goes, including the GATT service.
        let all = try #require(try cache.applyServiceChanged(handle: 0x0008, value: [0x01, 0x00, 0xFF, 0xFF]))
        #expect(all.removedServices.count == before.services.count)
        #expect(cache.services.isEmpty)
        #expect(cache.serviceChangedValueHandle == nil)
    }

    @Test("Database Hash: read with Read Using Characteristic UUID and compared with the cached one")
    func databaseHash() throws {
        let fixture = try Fixture()
        var link = GATTClientTestLink(fixture.database)
        let hash = fixture.database.databaseHashValue
        #expect(link.run(GATTClient.CheckDatabaseHash(cached: nil, mtu: 23)).gattOutput == .changed(hash: hash))
        #expect(link.requests == [.readByTypeRequest(ReadByTypeRequest(startingHandle: 0x0001, endingHandle: 0xFFFF, attributeType: BluetoothUUID(0x2B2A)))])
        #expect(link.run(GATTClient.CheckDatabaseHash(cached: hash, mtu: 23)).gattOutput == .unchanged)
        var stale = hash
        stale[0] ^= 1
        #expect(link.run(GATTClient.CheckDatabaseHash(cached: stale, mtu: 23)).gattOutput == .changed(hash: hash))

        // The database changes: the hash with it.
        let new = try Fixture(extraHeartRateCharacteristic: true)
        _ = link.server.replaceDatabase(new.database)
        #expect(new.database.databaseHashValue != hash)
        #expect(link.run(GATTClient.CheckDatabaseHash(cached: hash, mtu: 23)).gattOutput == .changed(hash: new.database.databaseHashValue))

        // No GATT service, no hash.
        let bare = try Fixture(genericAttribute: false)
        var other = GATTClientTestLink(bare.database)
        #expect(other.run(GATTClient.CheckDatabaseHash(cached: hash, mtu: 23)).gattOutput == .unavailable)
    }

    @Test("a robust-caching client that is change-unaware re-synchronises by reading the hash")
    func robustCaching() throws {
        let fixture = try Fixture()
        var link = GATTClientTestLink(fixture.database)
        // Client Supported Features: Robust Caching (bit 0).
        #expect(throws: Never.self) { try link.run(GATTClient.WriteCharacteristicValue(handle: 0x000B, value: [0x01], mtu: 23)).get() }
        let new = try Fixture(extraHeartRateCharacteristic: true)
        _ = link.server.replaceDatabase(new.database)
        // Change-unaware: the hash check (Read By Type over the whole range) is let
        // through, says the database changed, and makes the client change-aware…
        #expect(link.run(GATTClient.CheckDatabaseHash(cached: fixture.database.databaseHashValue, mtu: 23)).gattOutput
            == .changed(hash: new.database.databaseHashValue))
        let location = new.valueHandle(new.location)
        #expect(link.run(GATTClient.ReadCharacteristicValue(handle: location, mtu: 23)).gattOutput == [0x01])

        // …whereas without it, a read at a handle is refused with Database Out Of Sync.
        var other = GATTClientTestLink(fixture.database)
        #expect(throws: Never.self) { try other.run(GATTClient.WriteCharacteristicValue(handle: 0x000B, value: [0x01], mtu: 23)).get() }
        _ = other.server.replaceDatabase(new.database)
        let refused = other.run(GATTClient.ReadCharacteristicValue(handle: location, mtu: 23)).gattError
        #expect(refused == .attributeError(.databaseOutOfSync, handle: location, request: .readRequest))
        #expect(refused?.description.contains("Database Hash") == true)
    }
}
