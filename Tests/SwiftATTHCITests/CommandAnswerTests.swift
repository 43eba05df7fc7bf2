import SwiftATTCore
import SwiftATTHCI
import Testing

/// `HCICommand.returnParameters(from:)`: what each kind of answer means for a command
/// answered with Command Complete (Read BD_ADDR) and one answered with Command Status
/// (Disconnect). Core 5.4 Vol 4 Part E §4.4, §7.7.14, §7.7.15.
@Suite("HCI: a command's answer")
struct CommandAnswerTests {
    static func complete(_ opcode: HCIOpcode, _ returnParameters: [UInt8]) -> HCICommandAnswer {
        .complete(CommandComplete(numHCICommandPackets: 1, commandOpcode: opcode, returnParameters: returnParameters[...]))
    }

    static func status(_ opcode: HCIOpcode, _ status: HCIStatus) -> HCICommandAnswer {
        .status(CommandStatus(status: status, numHCICommandPackets: 1, commandOpcode: opcode))
    }

    @Test("Command Complete, success: the return parameters decoded")
    func completeSuccess() throws {
        let parameters = try ReadBDADDR.returnParameters(from: Self.complete(ReadBDADDR.opcode, [0x00, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11]))
        #expect(parameters.address == BluetoothAddress(0x1122_3344_5566, kind: .public))
    }

    @Test("Command Complete, an error status: commandFailed naming it")
    func completeFailure() {
        #expect(throws: HCIError.commandFailed(ReadBDADDR.opcode, .unknownCommand)) {
            try ReadBDADDR.returnParameters(from: Self.complete(ReadBDADDR.opcode, [0x01]))
        }
    }

    @Test("Command Complete, success but truncated: malformedResponse, not a trap")
    func completeTruncated() {
        #expect(throws: HCIError.malformedResponse(ReadBDADDR.opcode, .truncated("Read BD_ADDR return parameters", need: 7, have: 3))) {
            try ReadBDADDR.returnParameters(from: Self.complete(ReadBDADDR.opcode, [0x00, 0x66, 0x55]))
        }
    }

    @Test("Command Status, success, for a command answered so: success, the outcome comes later")
    func statusSuccess() throws {
        let parameters = try Disconnect.returnParameters(from: Self.status(Disconnect.opcode, .success))
        #expect(parameters.status == .success)
    }

    @Test("Command Status with an error refuses any command, whichever answer it expects")
    func statusFailure() {
        #expect(throws: HCIError.commandFailed(Disconnect.opcode, .commandDisallowed)) {
            try Disconnect.returnParameters(from: Self.status(Disconnect.opcode, .commandDisallowed))
        }
        #expect(throws: HCIError.commandFailed(ReadBDADDR.opcode, .commandDisallowed)) {
            try ReadBDADDR.returnParameters(from: Self.status(ReadBDADDR.opcode, .commandDisallowed))
        }
    }

    @Test("the wrong kind of answer with success: unexpectedResponse saying which")
    func wrongKind() {
        #expect(throws: HCIError.unexpectedResponse(ReadBDADDR.opcode, "Command Status where Command Complete was expected")) {
            try ReadBDADDR.returnParameters(from: Self.status(ReadBDADDR.opcode, .success))
        }
        #expect(throws: HCIError.unexpectedResponse(Disconnect.opcode, "Command Complete where Command Status was expected")) {
            try Disconnect.returnParameters(from: Self.complete(Disconnect.opcode, [0x00]))
        }
        #expect(throws: HCIError.commandFailed(Disconnect.opcode, .unknownConnectionIdentifier)) {
            try Disconnect.returnParameters(from: Self.complete(Disconnect.opcode, [0x02]))
        }
    }

    @Test("descriptions name the command and the problem")
    func descriptions() {
        #expect(HCIError.commandFailed(ReadBDADDR.opcode, .unknownCommand).description.contains("Unknown HCI Command"))
        #expect(HCIError.commandTimedOut(ReadBDADDR.opcode, .seconds(3)).description.contains("did not answer"))
        #expect(HCIError.hardwareError(0x42).description == "the controller reported a hardware error (code 0x42)")
    }
}
