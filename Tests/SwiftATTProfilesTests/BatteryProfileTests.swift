import SwiftATTPDU
import SwiftATTCore
import SwiftATTGATT
import SwiftATTProfiles
import Testing

/// The Battery service: its attributes and bytes, the level's codec, the draining
/// simulator, and the service beside the heart-rate monitor's.
struct BatteryProfileTests {
    @Test func databaseLayoutAndValues() throws {
        let profile = try BatteryProfile.Server(level: 87)
        let db = profile.database
        let range = try #require(db.handles(of: profile.battery.service))
        #expect(range == 14...18)
        #expect(HeartRateProfileTests.layout(db, range) == [
            "14 2800 0f18",
            "15 2803 121000192a",   // read + notify, value 0x0010
            "16 2A19",
            "17 2904",              // Presentation Format
            "18 2902",              // CCCD
        ])
        let server = GATTServer(database: db)
        server.connect(1)
        #expect(try server.respond("0a1000") == "0b57")                  // 87 %
        #expect(try server.respond("0a1100") == "0b0400ad27010601")   // uint8, exponent 0, %, SIG, "main"
        // Subscribed, a new level is stored and notified.
        #expect(try server.respond("1212000100") == "13")
        let pushed = server.update(profile.battery.level, value: [86])
        #expect(pushed.map { Hex.encode($0.1.encoded()) } == ["1b100056"])
        #expect(try server.respond("0a1000") == "0b56")
        // Not writable.
        #expect(try server.respond("12100001") == "0112100003")
    }

    @Test func levelIsClampedTo100() throws {
        let profile = try BatteryProfile.Server(level: 200)
        #expect(GATTServer(database: profile.database).value(of: profile.battery.level) == [100])
    }

    @Test func levelCodec() throws {
        #expect(try BatteryLevel(decoding: [42][...]).percent == 42)
        #expect(BatteryLevel(percent: 100)?.encoded == [100])
        #expect(BatteryLevel(percent: 101) == nil)
        #expect(BatteryLevel(percent: 7)?.description == "7 %")
        #expect(throws: ProfileDecodingError.invalidField(value: "Battery Level", field: "percent", byte: 101, offset: 0)) {
            try BatteryLevel(decoding: [101][...])
        }
        #expect(throws: ProfileDecodingError.invalidLength(value: "Battery Level", length: 2, expected: "1 octet")) {
            try BatteryLevel(decoding: [1, 2][...])
        }
        #expect(throws: ProfileDecodingError.invalidLength(value: "Battery Level", length: 0, expected: "1 octet")) {
            try BatteryLevel(decoding: [][...])
        }
    }

    @Test func simulatorDrainsOnePercentPerPeriodAndRecharges() {
        var battery = BatterySimulator(level: 2, drainEvery: 3)
        let changes = (0..<12).map { _ in battery.tick() }
        #expect(changes == [nil, nil, 1, nil, nil, 0, nil, nil, 100, nil, nil, 99])
        battery.set(150)
        #expect(battery.level == 100)
        battery.set(50)
        #expect(battery.tick() == nil)   // the period starts over at a set
        #expect(battery.tick() == nil)
        #expect(battery.tick() == 49)

        var steady = BatterySimulator(level: 80, drainEvery: 0)
        #expect((0..<10).compactMap { _ in steady.tick() }.isEmpty)
        #expect(steady.level == 80)
    }

    /// A heart-rate monitor with Battery and Device Information after its own service.
    @Test func besideTheHeartRateService() throws {
        let battery = BatteryProfile.Service(level: 64)
        let information = DeviceInformationProfile.Service(DeviceInformation(modelNumber: "HRM-1"))
        let monitor = try HeartRateProfile.Server(alongside: [battery.service, information.service])
        let db = monitor.database
        #expect(db.services.map(\.uuid) == [0x1800, 0x1801, 0x180D, 0x180F, 0x180A].map { BluetoothUUID($0) })
        #expect(db.handles(of: monitor.service) == 14...21)
        #expect(db.handles(of: battery.service) == 22...26)
        let server = GATTServer(database: db)
        server.connect(1)
        #expect(try server.respond("0a1800") == "0b40")   // Battery Level at 0x0018: 64 %
        let model = try #require(information.characteristic(DeviceInformationProfile.modelNumber))
        let handle = try #require(db.valueHandle(of: model))
        #expect(server.value(at: handle) == Array("HRM-1".utf8))
    }
}
