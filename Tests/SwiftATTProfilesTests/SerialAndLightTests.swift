import SwiftATTPDU
import SwiftATTCore
import SwiftATTGATT
import SwiftATTProfiles
import Synchronization
import Testing

struct SerialModuleTests {
    @Test func databaseLayout() throws {
        let profile = try SerialModuleProfile.Server()
        let db = profile.database
        let range = try #require(db.handles(of: profile.service))
        #expect(HeartRateProfileTests.layout(db, range) == [
            "14 2800 e0ff",
            "15 2803 161000e1ff",   // read, write without response, notify
            "16 FFE1",
            "17 2902",
        ])
    }

    @Test func writesReachTheApplicationAndReadsReturnTheLastValue() throws {
        let written = Mutex<[[UInt8]]>([])
        let profile = try SerialModuleProfile.Server { value in written.withLock { $0.append(value) } }
        let server = GATTServer(database: profile.database)
        server.connect(1)
        // Write Command "hi" to 0x0010: no response.
        #expect(try server.respond("521000" + Hex.encode(Array("hi".utf8))) == nil)
        #expect(written.withLock { $0 } == [Array("hi".utf8)])
        #expect(try server.respond("0a1000") == "0b" + Hex.encode(Array("hi".utf8)))
        // A notification replaces the value a read returns.
        _ = server.update(profile.characteristic, value: SerialModuleProfile.value("Success!"))
        #expect(try server.respond("0a1000") == "0b" + Hex.encode(Array("Success!".utf8)))
        #expect(SerialModuleProfile.text(Array("Well done!".utf8)) == "Well done!")
    }

    @Test func chunksKeepCharactersWhole() {
        #expect(SerialModuleProfile.chunks("Success!") == [Array("Success!".utf8)])
        #expect(SerialModuleProfile.chunks("") == [[]])
        let text = String(repeating: "é", count: 15)   // 30 octets
        let pieces = SerialModuleProfile.chunks(text, maximumLength: 20)
        #expect(pieces.map(\.count) == [20, 10])
        #expect(pieces.map { String(decoding: $0, as: UTF8.self) } == [String(repeating: "é", count: 10), String(repeating: "é", count: 5)])
        #expect(SerialModuleProfile.chunks("abcdé", maximumLength: 5).map(\.count) == [4, 2])
        #expect(SerialModuleProfile.chunks("👍", maximumLength: 2).map(\.count) == [2, 2])
    }

    @Test func advertisement() throws {
        let ad = try SerialModuleProfile.advertisement()
        #expect(Hex.encode(ad.data) == "020106" + "0303e0ff" + "060948432d3038")
    }
}

struct LightShieldTests {
    @Test func uuidsAreRedBearLabs() {
        #expect(LightShieldProfile.service.description == "713D0000-503E-4C75-BA94-3148F18D941E")
        #expect(LightShieldProfile.tx.description == "713D0002-503E-4C75-BA94-3148F18D941E")
        #expect(LightShieldProfile.rx.description == "713D0003-503E-4C75-BA94-3148F18D941E")
    }

    @Test func databaseLayout() throws {
        let profile = try LightShieldProfile.Server()
        let db = profile.database
        let range = try #require(db.handles(of: profile.service))
        #expect(HeartRateProfileTests.layout(db, range) == [
            "14 2800 " + Hex.encode(LightShieldProfile.service.encoded()),
            "15 2803 101000" + Hex.encode(LightShieldProfile.tx.encoded()),    // notify
            "16 713D0002-503E-4C75-BA94-3148F18D941E",
            "17 2902",
            "18 2803 041300" + Hex.encode(LightShieldProfile.rx.encoded()),    // write without response
            "19 713D0003-503E-4C75-BA94-3148F18D941E",
        ])
    }

    @Test func commandsWrittenWithoutResponseAreDecoded() throws {
        let written = Mutex<[[UInt8]]>([])
        let profile = try LightShieldProfile.Server { value in written.withLock { $0.append(value) } }
        let server = GATTServer(database: profile.database)
        server.connect(1)
        #expect(try server.respond("52130003" + "01") == nil)
        let value = try #require(written.withLock { $0.first })
        let command = try LightCommand(decoding: value)
        #expect(command == LightCommand(light: 3, isOn: true))
        #expect(command.description == "light 3 on")
    }

    @Test func codec() throws {
        #expect(LightCommand(light: 1, isOn: false).encoded() == [0x01, 0x00])   // the seed's buffer
        #expect(try LightCommand(decoding: [0x02, 0x01]) == LightCommand(light: 2, isOn: true))
        #expect(try LightCommand(decoding: [0x02, 0x00]).description == "light 2 off")
        #expect(throws: ProfileDecodingError.invalidLength(value: "Light command", length: 1, expected: "2 octets")) {
            try LightCommand(decoding: [0x01])
        }
        #expect(throws: ProfileDecodingError.invalidLength(value: "Light command", length: 3, expected: "2 octets")) {
            try LightCommand(decoding: [0x01, 0x01, 0x01])
        }
        #expect(throws: ProfileDecodingError.invalidField(value: "Light command", field: "state", byte: 0x02, offset: 1)) {
            try LightCommand(decoding: [0x01, 0x02])
        }
    }
}
