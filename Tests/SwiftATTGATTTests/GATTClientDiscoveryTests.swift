import SwiftATTPDU
import SwiftATTCore
import SwiftATTGATT
import Testing

/// Discovery against the in-repo GATT server over two bearers: services, included
/// services, characteristics, descriptors, and the whole database, at ATT_MTU 23 and
/// after an Exchange MTU to 247. Core 5.4 Vol 3 Part G §4.4–§4.7.
@Suite("GATT client: discovery")
struct GATTClientDiscoveryTests {
    typealias Fixture = GATTClientFixture

    @Test("the whole database, as the server's own table describes it", arguments: [nil, 247])
    func wholeDatabase(mtu: Int?) throws {
        let fixture = try Fixture()
        var link = GATTClientTestLink(fixture.database, mtu: mtu)
        #expect(link.mtu == (mtu ?? 23))
        let discovered = try link.run(GATTClient.DiscoverDatabase(mtu: link.mtu)).get()
        #expect(discovered == Fixture.expected(fixture.database))

        let uuids = discovered.services.map(\.service.uuid)
        #expect(uuids == [BluetoothUUID(0x1800), BluetoothUUID(0x1801), BluetoothUUID(0x180D), BluetoothUUID(0x180F),
                          Fixture.customServiceUUID, Fixture.secondaryServiceUUID])
        let secondary = try #require(discovered.services.last)
        #expect(!secondary.service.isPrimary)
        #expect(secondary.characteristics.map(\.characteristic.uuid) == [Fixture.customUUID(0x20)])
        let custom = try #require(discovered.services.first { $0.service.uuid == Fixture.customServiceUUID })
        #expect(custom.includedServices.map(\.uuid) == [BluetoothUUID(0x180F), Fixture.secondaryServiceUUID])
        #expect(custom.includedServices.map(\.handles) == [fixture.database.handles(of: fixture.battery), fixture.database.handles(of: fixture.secondary)])
        // The 128-bit include carries no UUID: one Read of the secondary service's declaration.
        #expect(link.requests.contains(.readRequest(ReadRequest(handle: fixture.database.handles(of: fixture.secondary)!.lowerBound))))
    }

    @Test("a larger ATT_MTU needs fewer round trips")
    func largerMTUFewerRoundTrips() throws {
        let fixture = try Fixture()
        var small = GATTClientTestLink(fixture.database)
        var large = GATTClientTestLink(fixture.database, mtu: 247)
        let a = try small.run(GATTClient.DiscoverDatabase(mtu: small.mtu)).get()
        let b = try large.run(GATTClient.DiscoverDatabase(mtu: large.mtu)).get()
        #expect(a == b)
        #expect(large.requests.count < small.requests.count)
    }

    @Test("Discover All Primary Services continues after each last end handle until Attribute Not Found")
    func allPrimaryServices() throws {
        let fixture = try Fixture()
        var link = GATTClientTestLink(fixture.database)
        let services = try link.run(GATTClient.DiscoverPrimaryServices(mtu: 23)).get()
        let expected = Fixture.expected(fixture.database).services.map(\.service).filter(\.isPrimary)
        #expect(services == expected)

        // At MTU 23: 16-bit services go up to three per answer, 128-bit ones one per answer.
        var starts: [UInt16] = []
        for case let .readByGroupTypeRequest(r) in link.requests {
            #expect(r.endingHandle == 0xFFFF)
            #expect(r.attributeGroupType == BluetoothUUID(0x2800))
            starts.append(r.startingHandle)
        }
        let hr = fixture.database.handles(of: fixture.heartRate)!
        let battery = fixture.database.handles(of: fixture.battery)!
        let custom = fixture.database.handles(of: fixture.custom)!
        // 1800/1801/180D fill the first answer; 180F stops at the 128-bit custom one.
        #expect(starts == [0x0001, hr.upperBound + 1, battery.upperBound + 1, custom.upperBound + 1])
        #expect(link.requests.count == 4, "the last answer is Attribute Not Found (the secondary service is not primary)")
    }

    @Test("Discover Primary Service by Service UUID, 16- and 128-bit, and one that is absent")
    func primaryServiceByUUID() throws {
        let fixture = try Fixture()
        var link = GATTClientTestLink(fixture.database)
        let hr = try link.run(GATTClient.DiscoverPrimaryServices(uuid: BluetoothUUID(0x180D), mtu: 23)).get()
        #expect(hr == [GATTClient.Service(uuid: BluetoothUUID(0x180D), handles: fixture.database.handles(of: fixture.heartRate)!)])
        #expect(link.requests.first == .findByTypeValueRequest(FindByTypeValueRequest(
            startingHandle: 1, endingHandle: 0xFFFF, attributeType: 0x2800, attributeValue: [0x0D, 0x18])))

        // Given as a 128-bit UUID on the Base UUID, it is still sent in its 16-bit form.
        let widened = try link.run(GATTClient.DiscoverPrimaryServices(uuid: BluetoothUUID(0x180D).widened, mtu: 23)).get()
        #expect(widened.map(\.handles) == hr.map(\.handles))

        let custom = try link.run(GATTClient.DiscoverPrimaryServices(uuid: Fixture.customServiceUUID, mtu: 23)).get()
        #expect(custom.map(\.handles) == [fixture.database.handles(of: fixture.custom)!])

        let secondary = try link.run(GATTClient.DiscoverPrimaryServices(uuid: Fixture.secondaryServiceUUID, mtu: 23)).get()
        #expect(secondary == [], "a secondary service is not a primary one")
        #expect(try link.run(GATTClient.DiscoverPrimaryServices(uuid: BluetoothUUID(0x1234), mtu: 23)).get() == [])
    }

    @Test("services in a sub-range: one whose declaration lies inside is found whole")
    func servicesInRange() throws {
        let fixture = try Fixture()
        var link = GATTClientTestLink(fixture.database)
        let hr = fixture.database.handles(of: fixture.heartRate)!
        let found = try link.run(GATTClient.DiscoverPrimaryServices(range: hr.lowerBound...(hr.lowerBound + 1), mtu: 23)).get()
        #expect(found == [GATTClient.Service(uuid: BluetoothUUID(0x180D), handles: hr)])
        #expect(link.requests.count == 1, "the group ends past the range: nothing more to ask")
    }

    @Test("Find Included Services: a 16-bit include, and a 128-bit one read from its declaration")
    func includedServices() throws {
        let fixture = try Fixture()
        var link = GATTClientTestLink(fixture.database)
        let range = fixture.database.handles(of: fixture.custom)!
        let included = try link.run(GATTClient.FindIncludedServices(range: range, mtu: 23)).get()
        #expect(included == [
            GATTClient.IncludedService(declarationHandle: range.lowerBound + 1, handles: fixture.database.handles(of: fixture.battery)!, uuid: BluetoothUUID(0x180F)),
            GATTClient.IncludedService(declarationHandle: range.lowerBound + 2, handles: fixture.database.handles(of: fixture.secondary)!, uuid: Fixture.secondaryServiceUUID),
        ])
        // 16-bit include (6-octet value) first; the 128-bit one (4 octets) in the next
        // answer, then its Read; then the search goes on to Attribute Not Found.
        #expect(link.requests.map(\.opcode) == [.readByTypeRequest, .readByTypeRequest, .readRequest, .readByTypeRequest])

        let none = try link.run(GATTClient.FindIncludedServices(range: fixture.database.handles(of: fixture.heartRate)!, mtu: 23)).get()
        #expect(none == [])
    }

    @Test("Discover All Characteristics of a Service: declarations decoded, end handles derived")
    func characteristics() throws {
        let fixture = try Fixture()
        var link = GATTClientTestLink(fixture.database)
        let hr = GATTClient.Service(uuid: BluetoothUUID(0x180D), handles: fixture.database.handles(of: fixture.heartRate)!)
        let found = try link.run(GATTClient.DiscoverCharacteristics(service: hr, mtu: 23)).get()
        let measurement = fixture.valueHandle(fixture.measurement)
        let location = fixture.valueHandle(fixture.location)
        let controlPoint = fixture.valueHandle(fixture.controlPoint)
        #expect(found == [
            .init(uuid: BluetoothUUID(0x2A37), declarationHandle: measurement - 1, valueHandle: measurement, endHandle: measurement + 1, properties: [.notify]),
            .init(uuid: BluetoothUUID(0x2A38), declarationHandle: location - 1, valueHandle: location, endHandle: location, properties: [.read]),
            .init(uuid: BluetoothUUID(0x2A39), declarationHandle: controlPoint - 1, valueHandle: controlPoint, endHandle: hr.handles.upperBound, properties: [.write]),
        ])
        #expect(found[0].descriptorHandles == (measurement + 1)...(measurement + 1))
        #expect(found[1].descriptorHandles == nil)
    }

    @Test("Discover Characteristics by UUID: only matches, with end handles from every declaration")
    func characteristicsByUUID() throws {
        let fixture = try Fixture()
        var link = GATTClientTestLink(fixture.database, mtu: 247)
        let range = fixture.database.handles(of: fixture.custom)!
        let found = try link.run(GATTClient.DiscoverCharacteristics(range: range, uuid: Fixture.customUUID(2), mtu: link.mtu)).get()
        let value = fixture.valueHandle(fixture.reliable)
        #expect(found == [.init(
            uuid: Fixture.customUUID(2), declarationHandle: value - 1, valueHandle: value,
            endHandle: fixture.database.declarationHandle(of: fixture.exact22)! - 1, properties: [.read, .write, .extendedProperties])])
        #expect(try link.run(GATTClient.DiscoverCharacteristics(range: range, uuid: BluetoothUUID(0x2A00), mtu: link.mtu)).get() == [])
    }

    @Test("Discover All Characteristic Descriptors, and none asked for when there is no room")
    func descriptors() throws {
        let fixture = try Fixture()
        var link = GATTClientTestLink(fixture.database)
        let value = fixture.valueHandle(fixture.reliable)
        let reliable = GATTClient.Characteristic(
            uuid: Fixture.customUUID(2), declarationHandle: value - 1, valueHandle: value,
            endHandle: fixture.database.declarationHandle(of: fixture.exact22)! - 1, properties: [.read, .write])
        let found = try link.run(GATTClient.DiscoverAllCharacteristicDescriptors(characteristic: reliable, mtu: 23)).get()
        #expect(found == [
            .init(handle: value + 1, uuid: BluetoothUUID(0x2900)),
            .init(handle: fixture.database.handle(of: fixture.userDescription)!, uuid: BluetoothUUID(0x2901)),
        ])
        #expect(link.requests == [.findInformationRequest(FindInformationRequest(startingHandle: value + 1, endingHandle: value + 2))])

        var bare = GATTClient.DiscoverAllCharacteristicDescriptors(
            characteristic: .init(uuid: BluetoothUUID(0x2A38), declarationHandle: 0x10, valueHandle: 0x11, endHandle: 0x11, properties: [.read]), mtu: 23)
        #expect(bare.start() == .done([]))
    }

    @Test("a range starting at handle 0x0000 is refused before anything is sent")
    func zeroRange() {
        var services = GATTClient.DiscoverPrimaryServices(range: 0x0000...0x0010, mtu: 23)
        #expect(services.start() == .failed(.invalidHandleRange(0x0000...0x0010)))
        var characteristics = GATTClient.DiscoverCharacteristics(range: 0...5, mtu: 23)
        #expect(characteristics.start() == .failed(.invalidHandleRange(0...5)))
        var included = GATTClient.FindIncludedServices(range: 0...5, mtu: 23)
        #expect(included.start() == .failed(.invalidHandleRange(0...5)))
        var byUUID = GATTClient.ReadUsingCharacteristicUUID(uuid: BluetoothUUID(0x2A00), range: 0...5, mtu: 23)
        #expect(byUUID.start() == .failed(.invalidHandleRange(0...5)))
    }
}
