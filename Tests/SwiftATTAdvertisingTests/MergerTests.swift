import SwiftATTAdvertising
import SwiftATTCore
import Testing

@Suite("Advertisement merger")
struct MergerTests {
    let address = BluetoothAddress("C0:11:22:33:44:55", kind: .random)!
    let t0 = ContinuousClock.now

    // ADV_IND: flags, Heart Rate service, shortened name "Polar".
    let advertisement: [UInt8] = [0x02, 0x01, 0x06, 0x03, 0x03, 0x0D, 0x18, 0x06, 0x08] + Array("Polar".utf8)
    // SCAN_RSP: complete name, Tx Power Level.
    let scanResponse: [UInt8] = [0x0F, 0x09] + Array("Polar H10 1234".utf8) + [0x02, 0x0A, 0x04]

    @Test("the advertisement and its scan response merge into one device")
    func mergesAdvertisementAndScanResponse() throws {
        var merger = AdvertisementMerger()
        merger.merge(address: address, payload: advertisement, rssi: -70, isScanResponse: false, at: t0)
        let device = merger.merge(address: address, payload: scanResponse, rssi: -68, isScanResponse: true, at: t0 + .milliseconds(5))
        #expect(merger.devices.count == 1)
        #expect(merger[address] == device)
        #expect(device.rssi == -68 && device.firstSeen == t0 && device.lastSeen == t0 + .milliseconds(5))
        #expect(device.reportCount == 2 && device.lastDecodingError == nil)
        let data = device.data
        #expect(data.map(\.type) == [.flags, .completeListOf16BitServiceUUIDs, .shortenedLocalName, .completeLocalName, .txPowerLevel])
        #expect(data.localName?.name == "Polar H10 1234")  // complete preferred over shortened
        #expect(data.txPowerLevel == 4)
        #expect(data.serviceUUIDs == [BluetoothUUID(0x180D)])
        #expect(device.items == data.items)
        #expect(device.description == "C0:11:22:33:44:55 -68 dBm \"Polar H10 1234\" (5 items)")
    }

    @Test("a later report replaces earlier items of the same type")
    func laterReportsReplace() throws {
        var merger = AdvertisementMerger()
        merger.merge(address: address, payload: advertisement, rssi: -70, isScanResponse: false, at: t0)
        merger.merge(address: address, payload: scanResponse, rssi: -68, isScanResponse: true, at: t0 + .seconds(1))
        // A new advertisement with another name and Tx Power: its items win over the scan response's.
        let newer: [UInt8] = [0x02, 0x01, 0x06, 0x04, 0x09] + Array("New".utf8) + [0x02, 0x0A, 0xF0]
        let device = merger.merge(address: address, payload: newer, rssi: -60, isScanResponse: false, at: t0 + .seconds(2))
        #expect(device.data.map(\.type) == [.flags, .completeLocalName, .txPowerLevel])
        #expect(device.data.localName?.name == "New")
        #expect(device.data.txPowerLevel == -16)
        // The old advertisement's Heart Rate list is gone: the new advertisement replaced it.
        #expect(device.data.serviceUUIDs.isEmpty)
        #expect(device.rssi == -60 && device.reportCount == 3)
        // And the scan response, arriving again, wins back its types.
        let again = merger.merge(address: address, payload: scanResponse, rssi: -65, isScanResponse: true, at: t0 + .seconds(3))
        #expect(again.data.map(\.type) == [.flags, .completeLocalName, .txPowerLevel])
        #expect(again.data.localName?.name == "Polar H10 1234" && again.data.txPowerLevel == 4)
    }

    @Test("devices are keyed by address and address type")
    func keyedByAddress() {
        var merger = AdvertisementMerger()
        let publicTwin = BluetoothAddress(address.value, kind: .public)
        merger.merge(address: address, payload: advertisement, rssi: -70, isScanResponse: false, at: t0)
        merger.merge(address: publicTwin, payload: scanResponse, rssi: -50, isScanResponse: true, at: t0)
        #expect(merger.devices.count == 2)
        #expect(merger[address]?.scanResponse == nil)
        #expect(merger[publicTwin]?.advertisement == nil)
        #expect(merger[publicTwin]?.data.localName?.name == "Polar H10 1234")
    }

    @Test("a malformed report keeps its valid prefix and records the error")
    func malformedReport() throws {
        var merger = AdvertisementMerger()
        let damaged: [UInt8] = [0x02, 0x01, 0x06, 0x05, 0x09, 0x41]
        let device = merger.merge(address: address, payload: damaged, rssi: -80, isScanResponse: false, at: t0)
        #expect(device.lastDecodingError == .structureOverrun(offset: 3, length: 5, remaining: 2))
        #expect(device.data.map(\.type) == [.flags])
        #expect(device.reportCount == 1 && device.rssi == -80)
        let fixed = merger.merge(address: address, payload: advertisement, rssi: -80, isScanResponse: false, at: t0 + .seconds(1))
        #expect(fixed.lastDecodingError == nil && fixed.data.count == 3)
    }

    @Test("stale devices are removed")
    func removesStaleDevices() {
        var merger = AdvertisementMerger()
        let other = BluetoothAddress(0x1122_3344_5566)
        merger.merge(address: address, payload: advertisement, rssi: -70, isScanResponse: false, at: t0)
        merger.merge(address: other, payload: advertisement, rssi: -70, isScanResponse: false, at: t0 + .seconds(10))
        let removed = merger.removeDevices(lastSeenBefore: t0 + .seconds(5))
        #expect(removed.map(\.address) == [address])
        #expect(merger.devices.keys.sorted { $0.value < $1.value } == [other])
    }

    @Test("payload slices are read from their start")
    func slices() {
        var merger = AdvertisementMerger()
        let buffer: [UInt8] = [0xFF, 0xFF] + advertisement
        let device = merger.merge(address: address, payload: buffer[2...], rssi: 0, isScanResponse: false, at: t0)
        #expect(device.data.localName?.name == "Polar")
    }
}
