import SwiftATTCore
import SwiftATTL2CAP
import Testing

/// Every LE signaling command decodes from its golden octets, encodes back to them, and
/// keeps its decoding when the octets sit inside a larger buffer.
@Suite("LE signaling commands")
struct LESignalingCommandTests {
    @Test("every command has a golden vector", arguments: LESignalingCode.allCases)
    func coverage(_ code: LESignalingCode) {
        #expect(SignalingVector.all.contains { $0.command.code == code })
    }

    @Test("golden octets decode to the command", arguments: SignalingVector.all)
    func decode(_ v: SignalingVector) throws {
        let frame = try LESignalingFrame(parsing: v.bytes[...])
        #expect(frame.identifier == v.identifier)
        #expect(frame.command == v.command)
        #expect(frame.command.code.rawValue == v.bytes[0])
        // The two steps the responder takes give the same command.
        let packet = try LESignalingPacket(parsing: v.bytes[...])
        #expect(try LESignalingCommand(packet) == v.command)
    }

    @Test("the command encodes to the golden octets", arguments: SignalingVector.all)
    func encode(_ v: SignalingVector) {
        let frame = v.command.packet(identifier: v.identifier)
        #expect(frame.encodedLength == v.bytes.count)
        #expect(frame.encoded() == v.bytes)
        #expect(v.command.dataLength == v.data.count)
        #expect(v.command.code.allowedDataLengths.contains(v.data.count))
        // The raw packet built from the data says the same.
        let packet = LESignalingPacket(code: v.command.code.rawValue, identifier: v.identifier, data: v.data[...])
        #expect(packet.encoded() == v.bytes)
    }

    @Test("round trip: emit(parse(b)) == b, also at a non-zero startIndex", arguments: SignalingVector.all)
    func roundTrip(_ v: SignalingVector) throws {
        let inside = [0xEE, 0xEE] + v.bytes + [0xEE]
        let slice = inside[2..<(2 + v.bytes.count)]
        let frame = try LESignalingFrame(parsing: slice)
        #expect(frame.encoded() == v.bytes)
        var appended: [UInt8] = [0x05, 0x00]
        frame.encode(appendingTo: &appended)
        #expect(appended == [0x05, 0x00] + v.bytes)
    }

    @Test("each command type decodes its own data directly")
    func directDecoding() throws {
        #expect(try DisconnectionRequest(parsing: [0x41, 0x00, 0x40, 0x00]) == .init(destinationCID: 0x41, sourceCID: 0x40))
        #expect(try FlowControlCreditIndication(parsing: [0x40, 0x00, 0x05, 0x00]) == .init(cid: 0x40, credits: 5))
        #expect(try CreditBasedReconfigureResponse(parsing: [0x01, 0x00]).result == .mtuReductionNotAllowed)
        #expect(try CommandReject(parsing: [0x01, 0x00, 0x40, 0x00]) == .signalingMTUExceeded(actualMTU: 64))
        #expect(try CreditBasedConnectionRequest(parsing: octets("2700 4000 4000 0000 4000 4100")[...]).sourceCIDs == [0x40, 0x41])
    }

    @Test("codes, names and sections")
    func codes() {
        #expect(LESignalingCode.allCases.count == 12)
        #expect(LESignalingCode.creditBasedReconfigureResponse.rawValue == 0x1A)
        #expect(LESignalingCode.flowControlCreditIndication.description == "Flow Control Credit Indication (0x16)")
        #expect(LESignalingCode.allCases.filter(\.isRequest) == [
            .disconnectionRequest, .connectionParameterUpdateRequest, .leCreditBasedConnectionRequest,
            .creditBasedConnectionRequest, .creditBasedReconfigureRequest,
        ])
        #expect(LESignalingCode.creditBasedConnectionRequest.allowedDataLengths == [10, 12, 14, 16, 18])
        #expect(LESignalingCode.creditBasedConnectionResponse.allowedDataLengths == [8, 10, 12, 14, 16, 18])
        #expect(LESignalingCode.creditBasedReconfigureRequest.allowedDataLengths == [6, 8, 10, 12, 14])
        // The old constants still name the same codes.
        #expect(LESignalingPacket.commandReject == LESignalingCode.commandReject.rawValue)
        #expect(LESignalingPacket.connectionParameterUpdateRequest == LESignalingCode.connectionParameterUpdateRequest.rawValue)
        #expect(LESignalingPacket.connectionParameterUpdateResponse == LESignalingCode.connectionParameterUpdateResponse.rawValue)
    }

    @Test("every result and reason has the spec's name and a sentence")
    func resultNames() {
        var names = LECreditBasedConnectionResult.allCases.map(\.description)
        names += CreditBasedConnectionResult.allCases.map(\.description)
        names += CreditBasedReconfigureResult.allCases.map(\.description)
        names += CommandRejectReason.allCases.map(\.description)
        names += ConnectionParameterUpdateResult.allCases.map(\.description)
        #expect(names.allSatisfy { !$0.isEmpty })
        #expect(LECreditBasedConnectionResult.allCases.map(\.rawValue) == [0x0000, 0x0002] + Array(0x0004...0x000B))
        #expect(CreditBasedConnectionResult.allCases.map(\.rawValue) == [0x0000, 0x0002] + Array(0x0004...0x000F))
        #expect(CreditBasedReconfigureResult.allCases.map(\.rawValue) == Array(0x0000...0x0004))
        #expect(LECreditBasedConnectionResult.spsmNotSupported.description
            == "Connection refused – SPSM not supported: no service listens on that SPSM on the peer")
        #expect(CreditBasedConnectionResult.invalidParameters.name == "All connections refused – invalid parameters")
        #expect(CreditBasedConnectionResult.allCases.filter(\.refusesAll).map(\.rawValue) == [0x0002, 0x0005, 0x0006, 0x0007, 0x0008, 0x000B, 0x000C])
        #expect(CreditBasedConnectionResult.allCases.filter(\.isPending).map(\.rawValue) == [0x000D, 0x000E, 0x000F])
        #expect(LECreditBasedConnectionResult.allCases.filter(\.needsSecurity) == [.insufficientAuthentication, .insufficientEncryptionKeySize, .insufficientEncryption])
        #expect(CommandRejectReason.allCases.map(\.dataLength) == [0, 2, 4])
    }
}
