import SwiftATTCore
import Testing
import SwiftATTTransport

/// The management channel's packets, byte for byte (BlueZ doc/mgmt-api.txt): what the
/// hci0 transport writes to wait for an adapter, and what the kernel answers.
@Suite struct ManagementCodecTests {
    @Test func commandsEncodeAsTheKernelReadsThem() {
        #expect(ManagementCommand.readIndexList.encoded() == [0x03, 0x00, 0xFF, 0xFF, 0x00, 0x00])
        #expect(ManagementCommand.readInformation(index: 2).encoded() == [0x04, 0x00, 0x02, 0x00, 0x00, 0x00])
        #expect(ManagementCommand(.init(rawValue: 0x0005), index: 0x0102, parameters: [0x01]).encoded()
                == [0x05, 0x00, 0x02, 0x01, 0x01, 0x00, 0x01])
    }

    /// Command Complete for Read Controller Index List naming hci0 and hci1.
    static let indexListReply: [UInt8] = [0x01, 0x00, 0xFF, 0xFF, 0x09, 0x00, 0x03, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x01, 0x00]

    @Test func indexListReply() throws {
        let event = try ManagementEvent(Self.indexListReply[...])
        guard case let .commandComplete(opcode, index, status, parameters) = event else {
            Issue.record("not a Command Complete: \(event)")
            return
        }
        #expect(opcode == .readControllerIndexList)
        #expect(index == 0xFFFF)
        #expect(status == .success)
        let list = try ManagementIndexList(returnParameters: parameters)
        #expect(list.indexes == [0, 1])
        #expect(list.encoded()[...] == parameters)
        #expect(try ManagementIndexList(returnParameters: [0x00, 0x00]).indexes.isEmpty)
    }

    @Test func everyTruncationIsATypedError() {
        for cut in 0..<Self.indexListReply.count {
            let bytes = Array(Self.indexListReply[..<cut])
            #expect(throws: ManagementDecodingError.self) { try ManagementEvent(bytes[...]) }
        }
        // A length field that disagrees with the bytes, and an index list whose count lies.
        #expect(throws: ManagementDecodingError.lengthMismatch("management event 0x4", declared: 1, have: 0)) {
            try ManagementEvent([0x04, 0x00, 0x00, 0x00, 0x01, 0x00][...])
        }
        #expect(throws: ManagementDecodingError.self) { try ManagementIndexList(returnParameters: [0x02, 0x00, 0x00, 0x00]) }
        #expect(throws: ManagementDecodingError.self) { try ManagementIndexList(returnParameters: [0x01]) }
    }

    @Test func indexEventsAndCommandStatus() throws {
        #expect(try ManagementEvent([0x04, 0x00, 0x00, 0x00, 0x00, 0x00][...]) == .indexAdded(0))
        #expect(try ManagementEvent([0x05, 0x00, 0x03, 0x00, 0x00, 0x00][...]) == .indexRemoved(3))
        let status = try ManagementEvent([0x02, 0x00, 0x07, 0x00, 0x03, 0x00, 0x04, 0x00, 0x11][...])
        #expect(status == .commandStatus(.readControllerInformation, index: 7, status: .invalidIndex))
        #expect(ManagementStatus.invalidIndex.description == "Invalid Index (0x11)")
        let newSettings = try ManagementEvent([0x06, 0x00, 0x00, 0x00, 0x04, 0x00, 0x01, 0x00, 0x00, 0x00][...])
        #expect(newSettings == .other(code: 6, index: 0, parameters: [0x01, 0x00, 0x00, 0x00][...]))
    }

    /// Read Controller Information's 280 bytes: address, version, manufacturer, settings, name.
    @Test func controllerInformation() throws {
        var reply: [UInt8] = [0x01, 0x00, 0x00, 0xF0, 0xF0, 0xF0, 0x09, 0x5F, 0x00]
        reply += [0xFF, 0xFE, 0x01, 0x00]  // supported settings
        reply += [0x01, 0x02, 0x00, 0x00]  // current: powered, LE
        reply += [0x00, 0x00, 0x00]  // class of device
        reply += Array("swift-att".utf8) + [UInt8](repeating: 0, count: 249 - 9) + [UInt8](repeating: 0, count: 11)
        #expect(reply.count == ManagementControllerInformation.length)
        let info = try ManagementControllerInformation(returnParameters: reply[...])
        #expect(info.address.description == "F0:F0:F0:00:00:01")
        #expect(info.version == 9)
        #expect(info.manufacturer == 0x5F)
        #expect(info.currentSettings == [.powered, .lowEnergy])
        #expect(info.supportedSettings.contains(.advertising))
        #expect(info.name == "swift-att")
        #expect(throws: ManagementDecodingError.truncated("Read Controller Information reply", need: 280, have: 279)) {
            try ManagementControllerInformation(returnParameters: reply.dropLast())
        }
    }

    /// Who holds an adapter, from what the kernel shows.
    @Test func holders() {
        let address = BluetoothAddress(0)
        #expect(KernelAdapter(index: 0, address: address, flags: [], listed: true, powered: false).holder == .nobody)
        #expect(KernelAdapter(index: 0, address: address, flags: [.up, .running], listed: true, powered: true).holder == .management)
        #expect(KernelAdapter(index: 0, address: address, flags: [.up, .running], listed: false, powered: false).holder == .userChannel)
        #expect(KernelAdapter(index: 0, address: address, flags: [], listed: false, powered: false).holder == .settingUp)
        #expect(KernelAdapter(index: 0, address: address, flags: [.up, .initializing], listed: false, powered: false).holder == .settingUp)
    }
}
