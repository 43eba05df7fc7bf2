import SwiftATTAdvertising
import SwiftATTCore
import Testing

/// Fixtures/advertising/vectors.json: each payload decodes to the fields worked out by hand,
/// re-encodes to exactly its bytes, and rebuilds from its items.
@Suite("Golden vectors")
struct GoldenVectorTests {
    @Test("vectors.json loads and is well formed")
    func vectorFileIsWellFormed() throws {
        let vectors = try AdvertisingFixtures.load("vectors.json", as: [GoldenVector].self)
        #expect(vectors.count == GoldenVector.all.count)
        #expect(vectors.count >= 20)
        #expect(Set(vectors.map(\.name)).count == vectors.count, "vector names are unique")
        for v in vectors {
            let bytes = try Hex.decode(v.hex)
            #expect(Hex.encode(bytes) == v.hex, "\(v.name): hex is lowercase without separators")
            #expect(v.fields["items"]?.array != nil, "\(v.name)")
        }
        // The kinds the brief asks for are all there.
        let names = vectors.map(\.name)
        for needle in ["iBeacon", "Eddystone-URL", "Eddystone-UID", "Eddystone-TLM", "Heart rate", "Nordic UART", "Scan response", "Padded"] {
            #expect(names.contains { $0.contains(needle) }, "a vector for \(needle)")
        }
    }

    @Test("decodes to the listed fields", arguments: GoldenVector.all)
    func decodesToTheListedFields(_ v: GoldenVector) throws {
        let data = try AdvertisingData(parsing: v.bytes)
        #expect(ADFields.of(data) == .object(v.fields))
    }

    @Test("re-encodes to exactly the parsed bytes", arguments: GoldenVector.all)
    func reencodes(_ v: GoldenVector) throws {
        let data = try AdvertisingData(parsing: v.bytes)
        #expect(data.encodedLength == v.bytes.count)
        #expect(data.encoded() == v.bytes)
        // Structure by structure too.
        var rebuilt: [UInt8] = []
        for s in data { s.encode(appendingTo: &rebuilt) }
        #expect(rebuilt + data.padding == v.bytes)
    }

    @Test("items rebuild the significant part byte for byte, and parse back to the same items", arguments: GoldenVector.all)
    func itemsRoundTrip(_ v: GoldenVector) throws {
        let data = try AdvertisingData(parsing: v.bytes)
        let items = data.items
        let built = try AdvertisingData(items, maximumLength: AdvertisingDataBuilder.extendedMaximumLength)
        #expect(Array(built.bytes) == Array(data.significantPart))
        #expect(try AdvertisingData(parsing: Array(built.bytes)).items == items)
        for item in items {
            #expect(item.encodedLength == item.encoded().count)
            #expect(item.structure.item == item)
            #expect(item.type == item.structure.type)
        }
    }

    @Test("parses a slice in the middle of a larger buffer", arguments: GoldenVector.all)
    func parsesASlice(_ v: GoldenVector) throws {
        let bytes = v.bytes
        let buffer: [UInt8] = [0xEE, 0xEE, 0xEE] + bytes + [0xEE, 0xEE]
        let data = try AdvertisingData(parsing: buffer[3..<(3 + bytes.count)])
        #expect(ADFields.of(data) == .object(v.fields))
        #expect(data.encoded() == bytes)
        #expect(data == (try AdvertisingData(parsing: bytes)))
    }

    @Test("the valid-prefix parse of a valid payload is the whole payload", arguments: GoldenVector.all)
    func validPrefixOfValidPayload(_ v: GoldenVector) throws {
        let (data, error) = AdvertisingData.parsingValidPrefix(v.bytes[...])
        #expect(error == nil)
        #expect(data == (try AdvertisingData(parsing: v.bytes)))
    }

    @Test("every item has a one-line description", arguments: GoldenVector.all)
    func descriptions(_ v: GoldenVector) throws {
        for item in try AdvertisingData(parsing: v.bytes).items {
            let text = item.description
            #expect(!text.isEmpty && !text.contains("\n"), "\(text)")
        }
    }
}

/// The typed accessors of `AdvertisingData`, on the vectors they are meant for.
@Suite("Accessors")
struct AccessorTests {
    func data(_ needle: String) throws -> AdvertisingData {
        let v = try #require(GoldenVector.all.first { $0.name.contains(needle) })
        return try AdvertisingData(parsing: v.bytes)
    }

    @Test func heartRateMonitor() throws {
        let d = try data("Heart rate monitor")
        #expect(d.flags == [.leGeneralDiscoverableMode, .brEDRNotSupported])
        #expect(d.flags == .leGeneralDiscoverableLEOnly)
        #expect(d.serviceUUIDs == [BluetoothUUID(0x180D), BluetoothUUID(0x180F)])
        #expect(d.serviceUUIDs.map { $0.assignedName } == ["Heart Rate", "Battery"])
        #expect(d.serviceUUIDLists.first?.kind == .complete)
        #expect(d.appearance == .heartRateBelt)
        #expect(d.appearance?.description == "0x0341 Heart Rate Belt")
        #expect(d.localName?.name == "Polar H10 1234")
        #expect(d.localName?.isComplete == true)
        #expect(d.count == 4)
        #expect(d.txPowerLevel == nil && d.iBeacon == nil && d.eddystone == nil)
    }

    @Test("decoded values are views into the caller's buffer, not copies")
    func valuesAreViews() throws {
        let v = try #require(GoldenVector.all.first { $0.name.contains("Heart rate monitor") })
        let buffer: [UInt8] = [0xEE] + v.bytes
        let d = try AdvertisingData(parsing: buffer[1...])
        let name = try #require(d.localName)
        // Flags (3) + UUID list (6) + Appearance (4) + Length and AD type (2): the name starts
        // at payload byte 15, buffer index 16.
        #expect(name.bytes.startIndex == 16)
        let shared = buffer.withUnsafeBufferPointer { whole in
            name.bytes.withUnsafeBufferPointer { $0.baseAddress == whole.baseAddress! + 16 }
        }
        #expect(shared)
        #expect(d.serviceUUIDLists.first?.bytes.startIndex == 6)
    }

    @Test func iBeacon() throws {
        let d = try data("iBeacon: flags")
        let beacon = try #require(d.iBeacon)
        #expect(beacon.proximityUUID == BluetoothUUID("E2C56DB5-DFFB-48D2-B060-D0F5A71096E0"))
        #expect(beacon.major == 1 && beacon.minor == 2 && beacon.measuredPower == -59)
        #expect(d.manufacturerSpecificData(for: .apple)?.iBeacon == beacon)
        #expect(d.manufacturerSpecificData(for: .microsoft) == nil)
        #expect(beacon.manufacturerSpecificData == d.manufacturerSpecificData.first)
    }

    @Test func scanResponse() throws {
        let d = try data("Scan response")
        #expect(d.txPowerLevel == -8)
        #expect(d.manufacturerSpecificData.map(\.companyIdentifier) == [.nordicSemiconductor])
        #expect(d.manufacturerSpecificData.first?.companyIdentifier.description == "0x0059 Nordic Semiconductor ASA")
        #expect(d.localName?.name == "Nordic_UART")
    }

    @Test func nordicUART() throws {
        let d = try data("Nordic UART")
        #expect(d.serviceUUIDs.first?.assignedName == "Nordic UART Service")
        #expect(d.localName?.isComplete == false)
        #expect(d.localName?.name == "UART")
    }

    @Test func padding() throws {
        let d = try data("Padded legacy")
        #expect(d.significantLength == 8 && d.padding.count == 23 && d.paddingIsZero)
        #expect(d.count == 2)
        let early = try data("Early termination")
        #expect(early.count == 1 && !early.paddingIsZero && early.localName == nil)
    }

    @Test func sensorAndDirectedFields() throws {
        let sensor = try data("Sensor:")
        let range = try #require(sensor.peripheralConnectionIntervalRange)
        #expect(range.minimumMilliseconds == 7.5 && range.maximumMilliseconds == 4000)
        #expect(range.description == "7.5 ms – 4000 ms")
        #expect(sensor.solicitedServiceUUIDs == [BluetoothUUID(0x1812)])
        #expect(sensor.serviceUUIDs.isEmpty)
        #expect(sensor.serviceData(for: BluetoothUUID(0x180F))?.data == [0x5A])
        #expect(sensor.appearance == .keyboard)

        let directed = try data("Advertising interval 100 ms")
        #expect(directed.advertisingInterval?.milliseconds == 100)
        #expect(directed.advertisingInterval?.description == "100 ms")
        #expect(directed.leRole == .peripheralPreferred)
        let address = try #require(directed.leBluetoothDeviceAddress)
        #expect(address == BluetoothAddress("C0:BB:CC:DD:EE:FF", kind: .random))
        #expect(address.randomSubtype == .static)
        #expect(directed.targetAddresses == [BluetoothAddress(0x06_05_04_03_02_01, kind: .public)])

        let long = try data("Advertising Interval - long (4 octets")
        #expect(long.advertisingInterval?.units == 1_000_000)
        #expect(long.advertisingInterval?.milliseconds == 625_000)
        #expect(long.targetAddresses.first?.kind == .random)
        #expect(long.leRole == .onlyPeripheral)
    }

    @Test func extendedData() throws {
        let d = try data("Extended advertising data")
        #expect(d.significantLength == 63)
        #expect(d.advertisingInterval == AdvertisingInterval(units: 65536, byteCount: 3))
        #expect(d.serviceUUIDs == [BluetoothUUID(0x180D)])
        #expect(d.serviceUUIDs.first?.width == .bits32)
        #expect(d.serviceData.map(\.uuid) == [BluetoothUUID(uuid32: 0x1234_5678), BluetoothUUID("6E400001-B5A3-F393-E0A9-E50E24DCCA9E")!])
        #expect(d.solicitedServiceUUIDs.count == 2)
    }

    @Test func uris() throws {
        let https = try data("URI: https")
        #expect(https.uris.first?.uri == "https://www.bluetooth.com")
        #expect(https.uris.first?.scheme == "https:")
        let tel = try data("URI: tel")
        #expect(tel.uris.first?.uri == "tel:+123")
        #expect(tel.uris.first?.scheme == "")
    }

    @Test func edgeCases() throws {
        let d = try data("Edge cases")
        #expect(d.flags == [])
        #expect(d.serviceUUIDs.isEmpty && d.serviceUUIDLists.count == 1)
        #expect(d.localName?.isValidUTF8 == false)
        #expect(d.localName?.name == "AB\u{FFFD}C")
        #expect(Array(d.localName?.bytes ?? []) == [0x41, 0x42, 0xFF, 0x43])
        let others = d.items.filter { if case .other = $0 { true } else { false } }
        #expect(others.map(\.type) == [.classOfDevice, ADType(0x33)])
    }

    @Test func malformedBeaconsStayRaw() throws {
        let d = try data("Malformed beacons")
        #expect(d.iBeacon == nil && d.eddystone == nil)
        #expect(d.manufacturerSpecificData.first?.data.count == 22)
        #expect(d.serviceData.first?.uuid == EddystoneFrame.serviceUUID)
        #expect(d.serviceData.first?.data == [0x10, 0x00, 0x01, 0x41, 0x7F])
    }
}
