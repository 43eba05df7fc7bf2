import SwiftATTCore
import SwiftATTL2CAP
import Testing

/// Octets that are not LE signaling commands: every truncation of every golden vector
/// (of the data, with a consistent header, and of the frame), data one octet too long,
/// CID lists of the wrong size, reserved reasons and results, codes that are not LE
/// commands. Each fails with the error that names the command and what is wrong; none traps.
@Suite("LE signaling: malformed input")
struct LESignalingMalformedInputTests {
    static func decode(_ code: UInt8, _ data: [UInt8]) -> Result<LESignalingCommand, LESignalingDecodingError> {
        Result { () throws(LESignalingDecodingError) in try LESignalingCommand(code: code, data: data[...]) }
    }

    /// The lengths a command with `code` allows when its data starts with `data` (Command
    /// Reject's depend on the reason the first two octets give).
    static func allowed(_ code: LESignalingCode, _ data: [UInt8]) -> [Int] {
        guard code == .commandReject, data.count >= 2, let reason = CommandRejectReason(rawValue: UInt16(data[0]) | UInt16(data[1]) << 8) else {
            return code.allowedDataLengths
        }
        return [2 + reason.dataLength]
    }

    @Test("every truncation of the data is invalidLength, or a shorter CID list that re-encodes", arguments: SignalingVector.all)
    func truncations(_ v: SignalingVector) throws {
        let code = v.command.code
        for n in 0..<v.data.count {
            let cut = Array(v.data.prefix(n))
            switch Self.decode(code.rawValue, cut) {
            case let .success(command):
                // Only the CID-list commands have shorter valid forms: fewer CIDs.
                #expect(code.allowedDataLengths.count > 1 && code != .commandReject, "\(v.name) cut to \(n) decoded")
                #expect(command.packet(identifier: v.identifier).encoded() == Array(v.bytes.prefix(4 + n)).withLength(n))
            case let .failure(error):
                #expect(error == .invalidLength(code: code, length: n, allowed: Self.allowed(code, cut)), "\(v.name) cut to \(n)")
                #expect(error.code == code)
            }
        }
    }

    @Test("every truncation of the frame is a header error, with nothing to answer", arguments: SignalingVector.all)
    func frameTruncations(_ v: SignalingVector) {
        for n in 0..<v.bytes.count {
            let expected: LESignalingPacket.DecodingError = n < 4 ? .truncated(have: n) : .lengthMismatch(declared: v.data.count, have: n - 4)
            #expect(throws: LESignalingFrameError.packet(expected)) { try LESignalingFrame(parsing: v.bytes.prefix(n)) }
        }
    }

    @Test("one octet more, and an extra CID past the limit, is invalidLength", arguments: SignalingVector.all)
    func extensions(_ v: SignalingVector) {
        let code = v.command.code
        for extra in [[0x00], [0xFF, 0xFF], [0x40, 0x00, 0x41]] as [[UInt8]] {
            let long = v.data + extra
            let allowed = Self.allowed(code, v.data)
            if allowed.contains(long.count) { continue }  // one more CID: still a valid list
            #expect(throws: LESignalingDecodingError.invalidLength(code: code, length: long.count, allowed: allowed)) {
                try LESignalingCommand(code: code.rawValue, data: long[...])
            }
        }
    }

    /// A CID-list command whose list is empty or too long, and its message.
    struct CIDCountCase: Sendable, CustomTestStringConvertible {
        let name: String
        let code: LESignalingCode
        let data: String
        let message: String
        var testDescription: String { name }
    }

    static let cidCounts: [CIDCountCase] = [
        CIDCountCase(name: "ECFC request with no Source CID", code: .creditBasedConnectionRequest, data: "2700 4000 4000 0a00",
                     message: "Credit Based Connection Request (0x17): data is 8 octets, must be 10, 12, 14, 16 or 18; it carries 0 Source CIDs, 1–5 allowed (Core 5.4 Vol 3 Part A §4.25)"),
        CIDCountCase(name: "ECFC request with six Source CIDs", code: .creditBasedConnectionRequest,
                     data: "2700 4000 4000 0a00 4000 4100 4200 4300 4400 4500",
                     message: "Credit Based Connection Request (0x17): data is 20 octets, must be 10, 12, 14, 16 or 18; it carries 6 Source CIDs, 1–5 allowed (Core 5.4 Vol 3 Part A §4.25)"),
        CIDCountCase(name: "ECFC request with an odd octet", code: .creditBasedConnectionRequest, data: "2700 4000 4000 0a00 4000 41",
                     message: "Credit Based Connection Request (0x17): data is 11 octets, must be 10, 12, 14, 16 or 18; it carries 1 Source CIDs and an odd octet, 1–5 allowed (Core 5.4 Vol 3 Part A §4.25)"),
        CIDCountCase(name: "ECFC response with six Destination CIDs", code: .creditBasedConnectionResponse,
                     data: "4000 4000 0a00 0000 4000 4100 4200 4300 4400 4500",
                     message: "Credit Based Connection Response (0x18): data is 20 octets, must be 8, 10, 12, 14, 16 or 18; it carries 6 Destination CIDs, 0–5 allowed (Core 5.4 Vol 3 Part A §4.26)"),
        CIDCountCase(name: "Reconfigure request with no Destination CID", code: .creditBasedReconfigureRequest, data: "4000 4000",
                     message: "Credit Based Reconfigure Request (0x19): data is 4 octets, must be 6, 8, 10, 12 or 14; it carries 0 Destination CIDs, 1–5 allowed (Core 5.4 Vol 3 Part A §4.27)"),
        CIDCountCase(name: "Reconfigure request with six Destination CIDs", code: .creditBasedReconfigureRequest,
                     data: "4000 4000 4000 4100 4200 4300 4400 4500",
                     message: "Credit Based Reconfigure Request (0x19): data is 16 octets, must be 6, 8, 10, 12 or 14; it carries 6 Destination CIDs, 1–5 allowed (Core 5.4 Vol 3 Part A §4.27)"),
    ]

    @Test("CID lists of 0 or 6 (or half a CID) are invalidLength, and say how many", arguments: cidCounts)
    func cidCount(_ c: CIDCountCase) {
        let data = octets(c.data)
        let expected = LESignalingDecodingError.invalidLength(code: c.code, length: data.count, allowed: c.code.allowedDataLengths)
        #expect(Self.decode(c.code.rawValue, data) == .failure(expected))
        #expect(expected.description == c.message)
    }

    /// Data with a reason or result the spec reserves.
    struct ReservedCase: Sendable, CustomTestStringConvertible {
        let code: LESignalingCode
        let data: String
        let field: LESignalingDecodingError.Field
        let value: UInt16
        var testDescription: String { "\(code.name): \(field) \(Hex.handle(value))" }
    }

    static let reserved: [ReservedCase] = [
        ReservedCase(code: .commandReject, data: "0300", field: .reason, value: 0x0003),
        ReservedCase(code: .commandReject, data: "ffff 0000", field: .reason, value: 0xFFFF),
        ReservedCase(code: .connectionParameterUpdateResponse, data: "0200", field: .result, value: 0x0002),
        ReservedCase(code: .leCreditBasedConnectionResponse, data: "0000 0000 0000 0000 0100", field: .result, value: 0x0001),
        ReservedCase(code: .leCreditBasedConnectionResponse, data: "0000 0000 0000 0000 0300", field: .result, value: 0x0003),
        ReservedCase(code: .leCreditBasedConnectionResponse, data: "0000 0000 0000 0000 0c00", field: .result, value: 0x000C),
        ReservedCase(code: .creditBasedConnectionResponse, data: "0000 0000 0000 0100 0000", field: .result, value: 0x0001),
        ReservedCase(code: .creditBasedConnectionResponse, data: "0000 0000 0000 1000", field: .result, value: 0x0010),
        ReservedCase(code: .creditBasedReconfigureResponse, data: "0500", field: .result, value: 0x0005),
        ReservedCase(code: .creditBasedReconfigureResponse, data: "00ff", field: .result, value: 0xFF00),
    ]

    @Test("reserved reasons and results", arguments: reserved)
    func reservedValues(_ c: ReservedCase) {
        #expect(Self.decode(c.code.rawValue, octets(c.data)) == .failure(.reservedValue(code: c.code, field: c.field, value: c.value)))
    }

    @Test("a Command Reject whose data does not fit its reason")
    func rejectDataLength() {
        #expect(Self.decode(0x01, [0x00, 0x00, 0x17, 0x00]) == .failure(.invalidLength(code: .commandReject, length: 4, allowed: [2])))
        #expect(Self.decode(0x01, [0x01, 0x00]) == .failure(.invalidLength(code: .commandReject, length: 2, allowed: [4])))
        #expect(Self.decode(0x01, [0x02, 0x00, 0x40, 0x00]) == .failure(.invalidLength(code: .commandReject, length: 4, allowed: [6])))
        #expect(Self.decode(0x01, [0x02]) == .failure(.invalidLength(code: .commandReject, length: 1, allowed: [2, 4, 6])))
    }

    @Test("every code that is not an LE command is unknownCode, at any length")
    func unknownCodes() {
        let known = Set(LESignalingCode.allCases.map(\.rawValue))
        for code in UInt8.min...UInt8.max where !known.contains(code) {
            for length in [0, 2, 4, 10, 18] {
                #expect(Self.decode(code, [UInt8](repeating: 0x40, count: length)) == .failure(.unknownCode(code)))
            }
            #expect(LESignalingDecodingError.unknownCode(code).code == nil)
        }
        #expect(LESignalingDecodingError.unknownCode(0x0A).description
            == "LE signaling code 0x0a is not an LE command (Core 5.4 Vol 3 Part A §4 Table 4.2)")
    }

    @Test("messages say what and where")
    func messages() {
        #expect(LESignalingDecodingError.invalidLength(code: .disconnectionRequest, length: 3, allowed: [4]).description
            == "Disconnection Request (0x06): data is 3 octets, must be 4 (Core 5.4 Vol 3 Part A §4.6)")
        #expect(LESignalingDecodingError.reservedValue(code: .leCreditBasedConnectionResponse, field: .result, value: 1).description
            == "LE Credit Based Connection Response (0x15): Result 0x0001 at data octet 8 is reserved (Core 5.4 Vol 3 Part A §4.23)")
        let frameError = LESignalingFrameError.command(identifier: 7, .reservedValue(code: .commandReject, field: .reason, value: 3))
        #expect(frameError.description == "Command Reject (0x01): Reason 0x0003 at data octet 0 is reserved (Core 5.4 Vol 3 Part A §4.1) (identifier 0x07)")
    }

    @Test("a whole frame whose command is malformed keeps its identifier")
    func frameKeepsIdentifier() {
        #expect(throws: LESignalingFrameError.command(identifier: 0x33, .invalidLength(code: .flowControlCreditIndication, length: 2, allowed: [4]))) {
            try LESignalingFrame(parsing: [0x16, 0x33, 0x02, 0x00, 0x40, 0x00])
        }
    }
}

extension Array<UInt8> {
    /// A frame prefix with its length field set to `length`: the frame of a cut command.
    func withLength(_ length: Int) -> [UInt8] {
        var copy = self
        copy[2] = UInt8(length & 0xFF)
        copy[3] = UInt8(length >> 8)
        return copy
    }
}
