import SwiftATTCore
@testable import SwiftATTHCI
import Testing

/// Every event: golden vectors, round trips, truncations.
@Suite("Events")
struct EventTests {
    @Test("decodes to the listed event", arguments: EventVector.all)
    func decodes(_ v: EventVector) throws {
        #expect(try HCIEvent(parsing: v.packet[...]) == v.event)
    }

    @Test("encodes to exactly the listed packet", arguments: EventVector.all)
    func encodes(_ v: EventVector) {
        #expect(v.event.encodedLength == v.packet.count)
        #expect(v.event.encoded() == v.packet)
        #expect(v.event.packet.encoded() == v.packet)
        #expect(v.event.code == v.packet[0])
    }

    @Test("each event type's own packet and parser agree with the dispatcher", arguments: EventVector.all)
    func concreteTypes(_ v: EventVector) throws {
        guard let event = v.event.event else { return }
        #expect(event.packet.encoded() == v.packet)
        let reparsed = try type(of: event).init(parameters: v.packet[2...])
        #expect(reparsed.packet.encoded() == v.packet)
        if case let .leMeta(meta) = v.event, let sub = meta.subevent {
            #expect(sub.packet.encoded() == v.packet)
            #expect(meta.subeventCode == v.packet[2])
        }
    }

    @Test("parse → encode → parse is stable from an offset slice", arguments: EventVector.all)
    func offsetSlice(_ v: EventVector) throws {
        let padded = [0x77] + v.packet + [0x77]
        let e = try HCIEvent(parsing: padded[1..<(padded.count - 1)])
        #expect(e == v.event)
        #expect(e.encoded() == v.packet)
    }

    @Test("every truncated parameter block throws a typed error or decodes", arguments: EventVector.all)
    func truncations(_ v: EventVector) {
        let p = Array(v.packet[2...])
        for n in 0..<p.count {
            // Fix up the length octet so the parameter parser itself sees the short block.
            let packet = [v.packet[0], UInt8(n)] + p[..<n]
            if let e = try? HCIEvent(parsing: packet[...]) {
                // Only raw containers may accept a shorter block.
                switch e {
                case .unknown, .commandComplete, .leMeta(.unknown): break
                default: Issue.record("\(v.name): \(n) of \(p.count) octets decoded as \(e)")
                }
            }
            // The packet as sent, cut: always a length mismatch.
            #expect(throws: HCIDecodingError.self) { try HCIEvent(parsing: v.packet[..<(2 + n)]) }
        }
    }

    @Test("reports' data are views into the event's bytes")
    func reportDataAreViews() throws {
        let v = try #require(EventVector.all.first { $0.name == "LE Advertising Report (one)" })
        let packet = v.packet
        guard case let .leMeta(.advertisingReport(report)) = try HCIEvent(parsing: packet[...]) else {
            Issue.record("not an advertising report"); return
        }
        let data = report.reports[0].data
        #expect(data.startIndex == 13)
        packet.withUnsafeBufferPointer { whole in
            data.withUnsafeBufferPointer { view in
                #expect(view.baseAddress == whole.baseAddress! + 13, "the data is not a copy")
            }
        }
        let e = try #require(EventVector.all.first { $0.name == "LE Extended Advertising Report (legacy ADV_IND)" })
        let extPacket = e.packet
        guard case let .leMeta(.extendedAdvertisingReport(ext)) = try HCIEvent(parsing: extPacket[...]) else {
            Issue.record("not an extended advertising report"); return
        }
        #expect(ext.reports[0].data.startIndex == 28)
        extPacket.withUnsafeBufferPointer { whole in
            ext.reports[0].data.withUnsafeBufferPointer { view in
                #expect(view.baseAddress == whole.baseAddress! + 28)
            }
        }
    }

    @Test("extended report event types and data status")
    func extendedEventType() {
        let t = LEExtendedAdvertisingReport.EventType(rawValue: 0x0013)
        #expect(t.contains(.legacy) && t.contains(.connectable) && t.contains(.scannable))
        #expect(!t.contains(.directed) && !t.contains(.scanResponse))
        #expect(t.dataStatus == .complete)
        #expect(LEExtendedAdvertisingReport.EventType(rawValue: 0x0020).dataStatus == .incompleteMoreToCome)
        #expect(LEExtendedAdvertisingReport.EventType(rawValue: 0x0040).dataStatus == .incompleteTruncated)
        #expect(LEExtendedAdvertisingReport.EventType(rawValue: 0x0060).dataStatus == .reserved)
        #expect(LEExtendedAdvertisingReport.EventType([.directed], dataStatus: .incompleteTruncated).rawValue == 0x0044)
    }

    @Test("Number Of Completed Packets entries read in order")
    func completedPackets() throws {
        let e = try NumberOfCompletedPackets(parameters: bytes("03 0100 0200 0200 0100 ff0e ffff")[...])
        #expect(e.entries.count == 3)
        #expect(e.entries.map(\.connectionHandle) == [1, 2, 0x0EFF])
        #expect(e.entries.map(\.numCompletedPackets) == [2, 1, 0xFFFF])
    }

    @Test("connection events convert their units")
    func units() {
        let c = LEConnectionComplete(connectionHandle: 1, role: .central, peerAddress: peripheral, connectionInterval: 0x0C,
                                     peripheralLatency: 0, supervisionTimeout: 0x48)
        #expect(c.connectionIntervalMilliseconds == 15)
        #expect(c.supervisionTimeoutMilliseconds == 720)
        let u = LEConnectionUpdateComplete(connectionHandle: 1, connectionInterval: 0x28, peripheralLatency: 0,
                                           supervisionTimeout: 0x1F4)
        #expect(u.connectionIntervalMilliseconds == 50)
        #expect(u.supervisionTimeoutMilliseconds == 5000)
    }
}

/// Bytes that break a rule, and the error that names what and where.
@Suite("Malformed input")
struct MalformedTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let hex: String
        let error: HCIDecodingError
        var testDescription: String { name }
    }

    static let events: [Case] = [
        Case(name: "Number Of Completed Packets: count 2, one entry", hex: "13 05 02 0100 0100",
             error: .truncated("Number Of Completed Packets (Num_Handles 2)", need: 9, have: 5)),
        Case(name: "Number Of Completed Packets: count 1, two entries", hex: "13 09 01 0100 0100 0200 0100",
             error: .lengthMismatch("Number Of Completed Packets (Num_Handles 1)", declared: 5, have: 9)),
        Case(name: "Number Of Completed Packets: no count", hex: "13 00",
             error: .truncated("Number Of Completed Packets", need: 1, have: 0)),
        Case(name: "Advertising report data length past the end", hex: "3e 0d 02 01  00 01 020000175ac0 07 0201",
             error: .truncated("LE Advertising Report report 0", need: 17, have: 11)),
        Case(name: "Advertising report data length over 31",
             hex: "3e 2c 02 01  00 01 020000175ac0 20" + String(repeating: "00", count: 32) + "ce",
             error: .invalidField("LE Advertising Report report 0 Data_Length", value: 32)),
        Case(name: "Advertising report: second report missing", hex: "3e 13 02 02  00 01 020000175ac0 07 02010603030f18 ce",
             error: .truncated("LE Advertising Report report 1", need: 10, have: 0)),
        Case(name: "Advertising report: trailing octet", hex: "3e 14 02 01  00 01 020000175ac0 07 02010603030f18 ce 00",
             error: .lengthMismatch("LE Advertising Report (1 reports)", declared: 18, have: 19)),
        Case(name: "Advertising report: reserved event type", hex: "3e 0c 02 01  05 01 020000175ac0 00 ce",
             error: .invalidField("LE Advertising Report report 0 Event_Type", value: 5)),
        Case(name: "Extended advertising report data past the end",
             hex: "3e 1c 0d 01  1300 01 020000175ac0 01 00 ff 7f ce 0000 00 000000000000 07 0201",
             error: .truncated("LE Extended Advertising Report report 0", need: 31, have: 26)),
        Case(name: "Extended advertising report: reserved primary PHY",
             hex: "3e 1a 0d 01  1300 01 020000175ac0 07 00 ff 7f ce 0000 00 000000000000 00",
             error: .invalidField("LE Extended Advertising Report report 0 Primary_PHY", value: 7)),
        Case(name: "LE Meta with no subevent", hex: "3e 00",
             error: .truncated("LE Meta event subevent code", need: 1, have: 0)),
        Case(name: "Command Complete shorter than 3", hex: "0e 02 01 03",
             error: .truncated("Command Complete", need: 3, have: 2)),
        Case(name: "Command Status shorter than 4", hex: "0f 03 00 01 0d",
             error: .truncated("Command Status", need: 4, have: 3)),
        Case(name: "Disconnection Complete with an extra octet", hex: "05 05 00 0100 13 00",
             error: .lengthMismatch("Disconnection Complete", declared: 4, have: 5)),
        Case(name: "LE Connection Complete with a reserved role", hex: "3e 13 01 00 0100 02 01 020000175ac0 0c00 0000 4800 00",
             error: .invalidField("LE Connection Complete Role", value: 2)),
        Case(name: "LE Enhanced Connection Complete [v2] one octet short",
             hex: "3e 21 29 00 0100 01 03 010000175ac0 55443322114b 000000000000 2800 0000 f401 05 00 ff",
             error: .truncated("LE Enhanced Connection Complete [v2]", need: 33, have: 32)),
        Case(name: "Event length field longer than the packet", hex: "05 04 00 0100",
             error: .lengthMismatch("HCI event packet", declared: 4, have: 3)),
        Case(name: "Event header cut", hex: "05",
             error: .truncated("HCI event header", need: 2, have: 1)),
    ]

    @Test("malformed events fail with the listed error", arguments: events)
    func event(_ c: Case) {
        #expect(throws: c.error) { try HCIEvent(parsing: bytes(c.hex)[...]) }
    }

    struct CommandCase: Sendable, CustomTestStringConvertible {
        let name: String
        let type: any HCICommand.Type
        let hex: String
        let error: HCIDecodingError
        var testDescription: String { name }
    }

    static let commands: [CommandCase] = [
        CommandCase(name: "Reset with a parameter", type: Reset.self, hex: "00",
                    error: .lengthMismatch("Reset (0x0c03) parameters", declared: 0, have: 1)),
        CommandCase(name: "LE Set Advertising Data length 32", type: LESetAdvertisingData.self,
                    hex: "20" + String(repeating: "00", count: 31),
                    error: .invalidField("LE Set Advertising Data data length", value: 32)),
        CommandCase(name: "LE Set Advertising Data longer than 32 octets", type: LESetAdvertisingData.self,
                    hex: "00" + String(repeating: "00", count: 32),
                    error: .lengthMismatch("LE Set Advertising Data parameters", declared: 32, have: 33)),
        CommandCase(name: "LE Set Advertising Enable 0x02", type: LESetAdvertisingEnable.self, hex: "02",
                    error: .invalidField("LE Set Advertising Enable Advertising_Enable", value: 2)),
        CommandCase(name: "LE Add Device To Resolving List with an identity type 0x02", type: LEAddDeviceToResolvingList.self,
                    hex: "02 020000175ac0" + String(repeating: "00", count: 32),
                    error: .invalidField("LE Add Device To Resolving List Peer_Identity_Address_Type", value: 2)),
        CommandCase(name: "LE Add Device To Resolving List without its local IRK", type: LEAddDeviceToResolvingList.self,
                    hex: "01 020000175ac0" + String(repeating: "00", count: 16),
                    error: .truncated("LE Add Device To Resolving List parameters", need: 39, have: 23)),
        CommandCase(name: "LE Remove Device From Resolving List, anonymous type", type: LERemoveDeviceFromResolvingList.self,
                    hex: "ff 000000000000",
                    error: .invalidField("LE Remove Device From Resolving List Peer_Identity_Address_Type", value: 0xFF)),
        CommandCase(name: "LE Read Peer Resolvable Address, resolved-identity type", type: LEReadPeerResolvableAddress.self,
                    hex: "03 020000175ac0",
                    error: .invalidField("LE Read Peer Resolvable Address Peer_Identity_Address_Type", value: 3)),
        CommandCase(name: "LE Read Local Resolvable Address with an extra octet", type: LEReadLocalResolvableAddress.self,
                    hex: "00 665544332211 00",
                    error: .lengthMismatch("LE Read Local Resolvable Address parameters", declared: 7, have: 8)),
        CommandCase(name: "LE Set Address Resolution Enable 0x02", type: LESetAddressResolutionEnable.self, hex: "02",
                    error: .invalidField("LE Set Address Resolution Enable Address_Resolution_Enable", value: 2)),
        CommandCase(name: "LE Set Resolvable Private Address Timeout 0", type: LESetResolvablePrivateAddressTimeout.self,
                    hex: "0000",
                    error: .invalidField("LE Set Resolvable Private Address Timeout RPA_Timeout", value: 0)),
        CommandCase(name: "LE Set Resolvable Private Address Timeout one octet", type: LESetResolvablePrivateAddressTimeout.self,
                    hex: "84",
                    error: .truncated("LE Set Resolvable Private Address Timeout parameters", need: 2, have: 1)),
        CommandCase(name: "LE Set Privacy Mode 0x02", type: LESetPrivacyMode.self, hex: "01 020000175ac0 02",
                    error: .invalidField("LE Set Privacy Mode Privacy_Mode", value: 2)),
        CommandCase(name: "LE Set Privacy Mode with a bad identity type", type: LESetPrivacyMode.self, hex: "02 020000175ac0 01",
                    error: .invalidField("LE Set Privacy Mode Peer_Identity_Address_Type", value: 2)),
        CommandCase(name: "LE Set Advertising Parameters reserved channel bit", type: LESetAdvertisingParameters.self,
                    hex: "0008 0008 00 01 00 000000000000 08 00",
                    error: .invalidField("LE Set Advertising Parameters Advertising_Channel_Map", value: 8)),
        CommandCase(name: "LE Set Extended Scan Parameters on 2M", type: LESetExtendedScanParameters.self,
                    hex: "01 00 02 01 6000 3000",
                    error: .invalidField("LE Set Extended Scan Parameters Scanning_PHYs", value: 2)),
        CommandCase(name: "LE Set Extended Scan Parameters: two PHYs, one block", type: LESetExtendedScanParameters.self,
                    hex: "01 00 05 01 6000 3000",
                    error: .truncated("LE Set Extended Scan Parameters parameters (2 PHYs)", need: 13, have: 8)),
        CommandCase(name: "LE Extended Create Connection: two PHYs, one block", type: LEExtendedCreateConnection.self,
                    hex: "00 01 01 020000175ac0 03  6000 6000 1800 2800 0000 f401 0000 0000",
                    error: .truncated("LE Extended Create Connection parameters (2 PHYs)", need: 42, have: 26)),
        CommandCase(name: "LE Extended Create Connection: reserved PHY bit", type: LEExtendedCreateConnection.self,
                    hex: "00 01 01 020000175ac0 09  6000 6000 1800 2800 0000 f401 0000 0000",
                    error: .invalidField("LE Extended Create Connection Initiating_PHYs", value: 9)),
        CommandCase(name: "LE Set Extended Advertising Enable: two sets announced, one sent",
                    type: LESetExtendedAdvertisingEnable.self, hex: "01 02 00 0000 00",
                    error: .truncated("LE Set Extended Advertising Enable parameters (Num_Sets 2)", need: 10, have: 6)),
        CommandCase(name: "LE Set Extended Advertising Data: length past the end", type: LESetExtendedAdvertisingData.self,
                    hex: "00 03 01 05 020106",
                    error: .truncated("LE Set Extended Advertising Data parameters", need: 9, have: 7)),
        CommandCase(name: "LE Set Extended Advertising Data: reserved operation", type: LESetExtendedAdvertisingData.self,
                    hex: "00 05 01 00", error: .invalidField("LE Set Extended Advertising Data Operation", value: 5)),
        CommandCase(name: "LE Set Extended Advertising Parameters: reserved property bit",
                    type: LESetExtendedAdvertisingParameters.self,
                    hex: "00 9300 a00000 a00000 07 01 00 000000000000 00 7f 01 00 01 00 00",
                    error: .invalidField("LE Set Extended Advertising Parameters Advertising_Event_Properties", value: 0x93)),
        CommandCase(name: "LE Set PHY: reserved PHY option", type: LESetPHY.self, hex: "0100 00 02 02 0300",
                    error: .invalidField("LE Set PHY PHY_Options", value: 3)),
        CommandCase(name: "LE Create Connection: reserved own address type", type: LECreateConnection.self,
                    hex: "6000 6000 00 01 020000175ac0 04 0c00 1800 0000 4800 0000 0000",
                    error: .invalidField("LE Create Connection Own_Address_Type", value: 4)),
        CommandCase(name: "Disconnect cut", type: Disconnect.self, hex: "0100",
                    error: .truncated("Disconnect parameters", need: 3, have: 2)),
    ]

    @Test("malformed command parameters fail with the listed error", arguments: commands)
    func command(_ c: CommandCase) {
        #expect(throws: c.error) { try c.type.init(parameters: bytes(c.hex)[...]) }
    }

    @Test("command packets whose length octet disagrees")
    func commandPacketLength() {
        #expect(throws: HCIDecodingError.lengthMismatch("HCI command packet", declared: 3, have: 2)) {
            try HCICommandPacket(parsing: [0x01, 0x0C, 0x03, 0x00, 0x00][...])
        }
        #expect(throws: HCIDecodingError.truncated("HCI command header", need: 3, have: 2)) {
            try HCICommandPacket(parsing: [0x03, 0x0C][...])
        }
    }
}
