import SwiftATTCore
import SwiftATTSMP
import Testing

/// Octets that are not SMP PDUs: every cut and every extension of every golden vector,
/// every reserved value of every field, reserved codes, nothing at all. Each fails with
/// the error that names the command, field and value, and maps to the Pairing Failed
/// reason the pairing machine sends back.
@Suite("Malformed input")
struct MalformedInputTests {
    static func decode(_ bytes: [UInt8]) -> Result<SMPPDU, SMPDecodingError> {
        Result { () throws(SMPDecodingError) in try SMPPDU(decoding: bytes) }
    }

    @Test("every truncation is invalidLength", arguments: SMPVector.all)
    func truncations(_ v: SMPVector) throws {
        let bytes = v.bytes
        let code = try #require(SMPCode(rawValue: bytes[0]))
        for n in 1..<bytes.count {
            let error = SMPDecodingError.invalidLength(code: code, expected: bytes.count, actual: n)
            #expect(throws: error) { try SMPPDU(decoding: Array(bytes.prefix(n))) }
            #expect(error.pairingFailureReason == .invalidParameters)
            #expect(!error.isIgnoredOnReceipt)
            #expect(error.code == code)
        }
    }

    @Test("one octet more, and twice the length, is invalidLength", arguments: SMPVector.all)
    func extensions(_ v: SMPVector) throws {
        let bytes = v.bytes
        let code = try #require(SMPCode(rawValue: bytes[0]))
        for extra in [[0x00], [0xFF], Array(bytes.dropFirst())] as [[UInt8]] {
            #expect(throws: SMPDecodingError.invalidLength(code: code, expected: bytes.count, actual: bytes.count + extra.count)) {
                try SMPPDU(decoding: bytes + extra)
            }
        }
        // The largest SMP PDU an LE link could carry, 65 octets, past a short command's end.
        if bytes.count < 65 {
            let padded = bytes + [UInt8](repeating: 0, count: 65 - bytes.count)
            #expect(throws: SMPDecodingError.invalidLength(code: code, expected: bytes.count, actual: 65)) {
                try SMPPDU(decoding: padded)
            }
        }
    }

    @Test("a code alone is invalidLength for every command", arguments: SMPCode.allCases)
    func codeAlone(_ code: SMPCode) {
        #expect(throws: SMPDecodingError.invalidLength(code: code, expected: code.pduLength, actual: 1)) {
            try SMPPDU(decoding: [code.rawValue])
        }
    }

    @Test("the empty PDU")
    func empty() {
        #expect(throws: SMPDecodingError.empty) { try SMPPDU(decoding: []) }
        #expect(throws: SMPDecodingError.empty) { try SMPPDU(decoding: [UInt8]()[...]) }
        // A slice that is empty though its buffer is not.
        let buffer: [UInt8] = [0x01, 0x03, 0x00]
        #expect(throws: SMPDecodingError.empty) { try SMPPDU(decoding: buffer[2..<2]) }
        #expect(SMPDecodingError.empty.pairingFailureReason == .invalidParameters)
        #expect(SMPDecodingError.empty.code == nil)
    }

    @Test("reserved codes: 0x00 and 0x0F–0xFF, at any length")
    func unknownCodes() {
        for code in [UInt8(0x00)] + Array(0x0F...0xFF) {
            for length in [1, 2, 7, 17, 65] {
                let bytes = [code] + [UInt8](repeating: 0x01, count: length - 1)
                #expect(throws: SMPDecodingError.unknownCode(code)) { try SMPPDU(decoding: bytes) }
            }
            let error = SMPDecodingError.unknownCode(code)
            #expect(error.pairingFailureReason == .commandNotSupported)
            #expect(error.isIgnoredOnReceipt, "§3.3: a reserved code is ignored")
            #expect(error.code == nil)
        }
        #expect(SMPCode(rawValue: 0x00) == nil && SMPCode(rawValue: 0x0F) == nil && SMPCode(rawValue: 0xFF) == nil)
    }

    /// A PDU with one octet changed, and the error it must give.
    struct ReservedCase: Sendable, CustomTestStringConvertible {
        let base: String
        let code: SMPCode
        let field: SMPDecodingError.Field
        let values: [UInt8]
        var testDescription: String { "\(code.name): \(field)" }
    }

    static let reservedCases: [ReservedCase] = [
        ReservedCase(base: "01 03 00 0d 10 03 03", code: .pairingRequest, field: .ioCapability, values: Array(0x05...0xFF)),
        ReservedCase(base: "02 03 00 0d 10 03 03", code: .pairingResponse, field: .ioCapability, values: Array(0x05...0xFF)),
        ReservedCase(base: "01 03 00 0d 10 03 03", code: .pairingRequest, field: .oobDataFlag, values: Array(0x02...0xFF)),
        ReservedCase(base: "02 03 00 0d 10 03 03", code: .pairingResponse, field: .oobDataFlag, values: Array(0x02...0xFF)),
        ReservedCase(base: "01 03 00 0d 10 03 03", code: .pairingRequest, field: .maximumEncryptionKeySize,
                     values: Array(0...6) + Array(17...0xFF)),
        ReservedCase(base: "02 03 00 0d 10 03 03", code: .pairingResponse, field: .maximumEncryptionKeySize,
                     values: Array(0...6) + Array(17...0xFF)),
        ReservedCase(base: "05 08", code: .pairingFailed, field: .reason, values: [0x00] + Array(0x10...0xFF)),
        ReservedCase(base: "09 00 554433221100", code: .identityAddressInformation, field: .addressType,
                     values: Array(0x02...0xFF)),
        ReservedCase(base: "0e 00", code: .pairingKeypressNotification, field: .notificationType, values: Array(0x05...0xFF)),
    ]

    @Test("every reserved value of every checked field", arguments: reservedCases)
    func reservedValues(_ c: ReservedCase) throws {
        var bytes = octets(c.base)
        _ = try SMPPDU(decoding: bytes)  // the base is valid
        for value in c.values {
            bytes[c.field.octet] = value
            let error = SMPDecodingError.reservedValue(code: c.code, field: c.field, value: value)
            #expect(throws: error) { try SMPPDU(decoding: bytes) }
            #expect(error.pairingFailureReason == .invalidParameters)
            #expect(!error.isIgnoredOnReceipt)
        }
    }

    @Test("the valid values of every checked field decode")
    func validValuesDecode() throws {
        for io in 0...4 { _ = try SMPPDU(decoding: octets("01 00 00 00 10 00 00").replacing(at: 1, with: UInt8(io))) }
        for oob in 0...1 { _ = try SMPPDU(decoding: octets("02 00 00 00 10 00 00").replacing(at: 2, with: UInt8(oob))) }
        for size in 7...16 { _ = try SMPPDU(decoding: octets("01 00 00 00 10 00 00").replacing(at: 4, with: UInt8(size))) }
        for reason in 1...15 { _ = try SMPPDU(decoding: [0x05, UInt8(reason)]) }
        for type in 0...1 { _ = try SMPPDU(decoding: octets("09 00 554433221100").replacing(at: 1, with: UInt8(type))) }
        for type in 0...4 { _ = try SMPPDU(decoding: [0x0E, UInt8(type)]) }
        // Octets with no reserved values: any AuthReq, key distribution, 128-bit value.
        for octet in 0...255 {
            let o = UInt8(octet)
            #expect(try SMPPDU(decoding: [0x0B, o]) == .securityRequest(AuthenticationRequirements(rawValue: o)))
            let request = try SMPPDU(decoding: [0x01, 0x03, 0x00, o, 0x10, o, o])
            #expect(request.bytes == [0x01, 0x03, 0x00, o, 0x10, o, o])
        }
    }

    @Test("the first reserved value in octet order is the one reported")
    func firstReservedValueWins() {
        // IO Capability (octet 1), OOB data flag (2) and key size (4) all reserved.
        #expect(throws: SMPDecodingError.reservedValue(code: .pairingRequest, field: .ioCapability, value: 0x09)) {
            try SMPPDU(decoding: [0x01, 0x09, 0x02, 0x00, 0x20, 0x00, 0x00])
        }
        #expect(throws: SMPDecodingError.reservedValue(code: .pairingRequest, field: .oobDataFlag, value: 0x02)) {
            try SMPPDU(decoding: [0x01, 0x03, 0x02, 0x00, 0x20, 0x00, 0x00])
        }
        // The length is checked before any field.
        #expect(throws: SMPDecodingError.invalidLength(code: .pairingRequest, expected: 7, actual: 6)) {
            try SMPPDU(decoding: [0x01, 0x09, 0x02, 0x00, 0x20, 0x00])
        }
    }

    @Test("BlueZ smp-tester's invalid requests, and what the codec makes of them")
    func smpTesterInvalidRequests() {
        // smp_nval_req_3 = 01 ff: a 2-octet Pairing Request. The kernel answers 05 0a.
        let short = Self.decode([0x01, 0xFF])
        #expect(short == .failure(.invalidLength(code: .pairingRequest, expected: 7, actual: 2)))
        #expect(short.failureReason == .invalidParameters)
        // smp_nval_req_2 = 01 00 00 00 00 00 00: key size 0. The kernel answers 05 06
        // (Encryption Key Size); the codec calls it a parameter out of range.
        let zeroKey = Self.decode([0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00])
        #expect(zeroKey == .failure(.reservedValue(code: .pairingRequest, field: .maximumEncryptionKeySize, value: 0)))
        #expect(zeroKey.failureReason == .invalidParameters)
        // smp_nval_req_1 = 0b 00: a valid Security Request (the kernel, as a peripheral,
        // answers 05 07 because it does not support the command in that role).
        #expect(Self.decode([0x0B, 0x00]) == .success(.securityRequest([])))
    }

    @Test("every error says what and where", arguments: [
        SMPDecodingError.empty,
        .unknownCode(0x0F),
        .invalidLength(code: .pairingPublicKey, expected: 65, actual: 64),
        .reservedValue(code: .pairingRequest, field: .ioCapability, value: 0x05),
        .reservedValue(code: .pairingResponse, field: .oobDataFlag, value: 0x02),
        .reservedValue(code: .pairingRequest, field: .maximumEncryptionKeySize, value: 17),
        .reservedValue(code: .pairingFailed, field: .reason, value: 0x00),
        .reservedValue(code: .identityAddressInformation, field: .addressType, value: 0x02),
        .reservedValue(code: .pairingKeypressNotification, field: .notificationType, value: 0x05),
    ])
    func descriptions(_ error: SMPDecodingError) {
        let text = error.description
        #expect(!text.isEmpty)
        if let code = error.code { #expect(text.contains(code.name), "\(text)") }
        if case let .reservedValue(_, field, _) = error {
            #expect(text.contains(field.description) && text.contains("octet \(field.octet)"), "\(text)")
        }
    }

    @Test("the messages read as a user sees them")
    func exactMessages() {
        #expect(SMPDecodingError.invalidLength(code: .pairingPublicKey, expected: 65, actual: 64).description
            == "Pairing Public Key (0x0c) must be exactly 65 octets, has 64")
        #expect(SMPDecodingError.reservedValue(code: .pairingRequest, field: .maximumEncryptionKeySize, value: 17).description
            == "Pairing Request (0x01): Maximum Encryption Key Size 17 at octet 4 is not allowed; must be 7–16")
        #expect(SMPDecodingError.reservedValue(code: .pairingFailed, field: .reason, value: 0x10).description
            == "Pairing Failed (0x05): Reason 0x10 at octet 1 is not allowed; 0x01–0x0f are defined")
        #expect(SMPDecodingError.unknownCode(0xFF).description.hasPrefix("SMP code 0xff is reserved"))
    }
}

extension Result<SMPPDU, SMPDecodingError> {
    /// The Pairing Failed reason for a decoding failure, nil for a success.
    var failureReason: PairingFailureReason? {
        if case let .failure(error) = self { return error.pairingFailureReason }
        return nil
    }
}

extension Array<UInt8> {
    /// A copy with the octet at `index` replaced.
    func replacing(at index: Int, with value: UInt8) -> [UInt8] {
        var copy = self
        copy[index] = value
        return copy
    }
}
