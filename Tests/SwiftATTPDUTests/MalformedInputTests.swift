import SwiftATTPDU
import Testing
import TestSupport

/// Bytes that are not valid PDUs: the hand-worked table in Fixtures/att/malformed.json,
/// every truncation and one-byte extension of every golden vector, and a seeded fuzz.
/// Decoding must fail with the typed error that says what is wrong, or succeed with a
/// PDU that encodes back to exactly the input; it must never trap.
@Suite("Malformed input")
struct MalformedInputTests {
    static func decode(_ bytes: [UInt8]) -> Result<ATTPDU, ATTDecodingError> {
        Result { () throws(ATTDecodingError) in try ATTPDU(parsing: bytes) }
    }

    // MARK: The table

    @Test("malformed.json loads and every entry names a typed error")
    func malformedFileIsWellFormed() throws {
        let vectors = try ATTFixtures.load("malformed.json", as: [MalformedVector].self)
        #expect(vectors.count == MalformedVector.all.count)
        #expect(Set(vectors.map(\.name)).count == vectors.count, "names are unique")
        for v in vectors {
            #expect(v.expectedError != nil, "\(v.name): \(v.error) \(v.values)")
            let bytes = try Hex.decode(v.hex)
            #expect(Hex.encode(bytes) == v.hex, "\(v.name)")
        }
    }

    @Test("the table covers every PDU type that can be malformed")
    func malformedTableCoversEveryType() {
        let opcodes = Set(MalformedVector.all.compactMap { $0.bytes.first })
        // Read Multiple Response is an opcode and any bytes: no byte string starting with
        // 0x0F is malformed (its empty-input and wrong-opcode cases are below).
        for op in ATTOpcode.allDefined where op != .readMultipleResponse {
            #expect(opcodes.contains(op.rawValue), "no malformed vector for \(op)")
        }
        for unknown: UInt8 in [0x00, 0x14, 0x3F, 0x7F, 0xFF] {
            #expect(opcodes.contains(unknown), "no unknown-opcode vector for 0x\(String(unknown, radix: 16))")
        }
        #expect(MalformedVector.all.contains { $0.bytes.isEmpty })
        // Every 513-byte value PDU is there.
        let tooLong = Set(MalformedVector.all.filter { $0.error == "valueTooLong" }.compactMap { $0.bytes.first })
        #expect(tooLong.isSuperset(of: [0x06, 0x0B, 0x0D, 0x12, 0x16, 0x17, 0x1B, 0x1D, 0x21, 0x23, 0x52, 0xD2]))
    }

    @Test("throws exactly the listed error", arguments: MalformedVector.all)
    func throwsTheListedError(_ v: MalformedVector) throws {
        let expected = try #require(v.expectedError)
        #expect(throws: expected) { try ATTPDU(parsing: v.bytes) }

        // The PDU type's own parser says the same, and so does a handle/value PDU's
        // handle-only check.
        if let first = v.bytes.first, let type = ATTPDUTypes.type(for: first) {
            #expect(throws: expected) { try type.init(parsing: v.bytes) }
            if let shape = type as? any ATTHandleValuePDU.Type {
                #expect(throws: expected) { try shape.handle(in: v.bytes[...]) }
            }
        }
        #expect(!expected.description.isEmpty)
    }

    @Test("each PDU type rejects empty input and another PDU's opcode", arguments: ATTPDUTypes.all.indices)
    func concreteParsersCheckTheOpcode(_ index: Int) throws {
        let type = ATTPDUTypes.all[index]
        #expect(throws: ATTDecodingError.empty) { try type.init(parsing: []) }
        for v in GoldenVector.all where v.opcode == type.opcode.rawValue {
            var bytes = v.bytes
            for other in ATTOpcode.allDefined where other != type.opcode {
                bytes[0] = other.rawValue
                #expect(throws: ATTDecodingError.opcodeMismatch(expected: type.opcode, found: other)) {
                    try type.init(parsing: bytes)
                }
            }
            bytes[0] = 0x3F
            #expect(throws: ATTDecodingError.opcodeMismatch(expected: type.opcode, found: ATTOpcode(0x3F))) {
                try type.init(parsing: bytes)
            }
        }
    }

    @Test("error descriptions name the PDU and the numbers")
    func errorDescriptions() {
        #expect(ATTDecodingError.empty.description == "empty ATT PDU: no opcode")
        #expect(ATTDecodingError.unknownOpcode(ATTOpcode(0x3F)).description == "unknown opcode 0x3f: not defined by Core 5.4")
        #expect(ATTDecodingError.truncated(.readRequest, need: 3, have: 2).description
            == "Read Request truncated: needs at least 3 bytes, has 2")
        #expect(ATTDecodingError.invalidLength(.writeResponse, expected: 1, have: 2).description
            == "Write Response must be exactly 1 bytes, has 2")
        #expect(ATTDecodingError.valueTooLong(.writeRequest, length: 513).description
            == "Write Request: value of 513 bytes exceeds the 512-byte attribute limit")
        #expect(ATTDecodingError.tupleOverrun(.multipleHandleValueNotification, offset: 7, need: 7, have: 6).description
            == "Multiple Handle Value Notification: tuple at byte 7 needs 7 bytes, only 6 remain")
        #expect(ATTDecodingError.opcodeMismatch(expected: .readRequest, found: .readResponse).description
            == "expected Read Request (0x0a), found Read Response (0x0b)")
        for v in MalformedVector.all {
            guard let e = v.expectedError, let first = v.bytes.first, case let op = ATTOpcode(first), let name = op.name else { continue }
            if case .invalidFormat = e { continue }
            if case .invalidExecuteWriteFlags = e { continue }
            #expect(e.description.contains(name), "\(v.name): \(e)")
        }
    }

    // MARK: Generated from the golden vectors

    @Test("every truncation throws the right error or decodes to a PDU of exactly those bytes", arguments: GoldenVector.all)
    func everyTruncation(_ v: GoldenVector) {
        let bytes = v.bytes
        let fixed = ATTPDUTypes.fixedPartLength[v.opcode] ?? 1
        for k in 0..<bytes.count {
            let prefix = Array(bytes.prefix(k))
            switch Self.decode(prefix) {
            case let .success(pdu):
                #expect(k >= fixed, "\(v.name): \(k) bytes decoded below the fixed part")
                #expect(pdu.encoded() == prefix, "\(v.name): prefix \(k) re-encodes differently")
                #expect(pdu.encodedLength == k)
            case let .failure(error):
                if k == 0 {
                    #expect(error == .empty)
                } else if k < fixed {
                    #expect(error == .truncated(ATTOpcode(v.opcode), need: fixed, have: k), "\(v.name): prefix \(k)")
                }
            }
        }
    }

    @Test("every one-byte extension throws the right error or decodes to a PDU of exactly those bytes", arguments: GoldenVector.all)
    func everyOneByteExtension(_ v: GoldenVector) {
        let bytes = v.bytes
        let op = ATTOpcode(v.opcode)
        // PDUs whose last field is a value running to the end of the PDU: one more byte
        // is one more value byte, until the 512-octet limit.
        let valueTail: Set<UInt8> = [0x06, 0x0B, 0x0D, 0x0F, 0x12, 0x16, 0x17, 0x1B, 0x1D, 0x52]
        for b in UInt8.min...UInt8.max {
            let extended = bytes + [b]
            switch Self.decode(extended) {
            case let .success(pdu):
                #expect(!ATTPDUTypes.fixedLengthOpcodes.contains(v.opcode), "\(v.name) + \(b): fixed-length PDU grew")
                #expect(pdu.encoded() == extended, "\(v.name) + \(b): re-encodes differently")
            case let .failure(error):
                if ATTPDUTypes.fixedLengthOpcodes.contains(v.opcode) {
                    #expect(error == .invalidLength(op, expected: bytes.count, have: bytes.count + 1), "\(v.name) + \(b)")
                } else if valueTail.contains(v.opcode) {
                    #expect(error == .valueTooLong(op, length: 513), "\(v.name) + \(b)")
                }
            }
        }
    }

    @Test("a byte appended to a value PDU becomes the value's last byte")
    func appendedByteJoinsTheValue() throws {
        let pdu = try ATTPDU(parsing: [0x1B, 0x14, 0x00, 0x00, 0x48, 0x7F])
        guard case let .handleValueNotification(n) = pdu else { Issue.record("not a notification"); return }
        #expect(Array(n.value) == [0x00, 0x48, 0x7F])
    }

    // MARK: Fuzz

    static func caseName(_ error: ATTDecodingError) -> String {
        switch error {
        case .empty: "empty"
        case .unknownOpcode: "unknownOpcode"
        case .opcodeMismatch: "opcodeMismatch"
        case .truncated: "truncated"
        case .invalidLength: "invalidLength"
        case .invalidUUIDLength: "invalidUUIDLength"
        case .invalidFormat: "invalidFormat"
        case .invalidEntryLength: "invalidEntryLength"
        case .lengthNotMultiple: "lengthNotMultiple"
        case .tooFewEntries: "tooFewEntries"
        case .valueTooLong: "valueTooLong"
        case .invalidExecuteWriteFlags: "invalidExecuteWriteFlags"
        case .invalidSignatureLength: "invalidSignatureLength"
        case .tupleOverrun: "tupleOverrun"
        }
    }

    static func fuzzInput(_ rng: inout SplitMix64, golden: [[UInt8]]) -> [UInt8] {
        if Int.random(in: 0..<2, using: &rng) == 0, let seed = golden.randomElement(using: &rng) {
            // Mutate a valid PDU: the structure is close enough that many decode.
            var b = seed
            for _ in 0..<Int.random(in: 1...3, using: &rng) {
                switch Int.random(in: 0..<6, using: &rng) {
                case 0 where !b.isEmpty: b[Int.random(in: b.indices, using: &rng)] = UInt8.random(in: 0...255, using: &rng)
                case 1: b.insert(UInt8.random(in: 0...255, using: &rng), at: Int.random(in: 0...b.count, using: &rng))
                case 2 where !b.isEmpty: b.remove(at: Int.random(in: b.indices, using: &rng))
                case 3: b = Array(b.prefix(Int.random(in: 0...b.count, using: &rng)))
                case 4: b += (0..<Int.random(in: 0...24, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
                case 5 where b.count > 1:
                    // Repeat a tail, as a list with one more entry would.
                    let from = Int.random(in: 1..<b.count, using: &rng)
                    b += b[from...]
                default: break
                }
            }
            return b.count > 600 ? Array(b.prefix(600)) : b
        }
        let length: Int
        switch Int.random(in: 0..<10, using: &rng) {
        case 0..<5: length = Int.random(in: 0...24, using: &rng)
        case 5..<8: length = Int.random(in: 0...80, using: &rng)
        default: length = Int.random(in: 0...600, using: &rng)
        }
        var b = (0..<length).map { _ in UInt8.random(in: 0...255, using: &rng) }
        guard !b.isEmpty else { return b }
        let opcode = Int.random(in: 0..<5, using: &rng) == 0
            ? UInt8.random(in: 0...255, using: &rng)
            : ATTOpcode.allDefined.randomElement(using: &rng)!.rawValue
        b[0] = opcode
        // A plausible second byte for the PDUs that start with a format, length or flags.
        if b.count > 1, Bool.random(using: &rng) {
            switch opcode {
            case 0x05: b[1] = UInt8.random(in: 1...2, using: &rng)
            case 0x09: b[1] = UInt8.random(in: 2...8, using: &rng)
            case 0x11: b[1] = UInt8.random(in: 4...8, using: &rng)
            case 0x18: b[1] = UInt8.random(in: 0...1, using: &rng)
            default: break
            }
        }
        return b
    }

    @Test("200 000 seeded pseudo-random inputs: never a trap, every decode re-encodes to its input")
    func seededFuzz() {
        var rng = SplitMix64(seed: 0x5EED_0A77_0000_0001)
        let golden = GoldenVector.all.map(\.bytes)
        var decodedOpcodes = Set<UInt8>()
        var errorKinds = Set<String>()
        var successes = 0
        var mismatches: [String] = []
        for _ in 0..<200_000 {
            let input = Self.fuzzInput(&rng, golden: golden)
            switch Self.decode(input) {
            case let .success(pdu):
                successes += 1
                decodedOpcodes.insert(pdu.opcode.rawValue)
                if pdu.encoded() != input || pdu.encodedLength != input.count || pdu.opcode.rawValue != input.first {
                    if mismatches.count < 10 { mismatches.append(Hex.encode(input)) }
                }
            case let .failure(error):
                errorKinds.insert(Self.caseName(error))
            }
        }
        #expect(mismatches.isEmpty, "inputs that decode but re-encode differently: \(mismatches)")
        #expect(successes > 20_000, "the fuzz reaches the success paths (\(successes))")
        #expect(decodedOpcodes == Set(ATTOpcode.allDefined.map(\.rawValue)), "every PDU type decoded at least once")
        #expect(errorKinds.count >= 10, "many kinds of error reached: \(errorKinds.sorted())")
    }
}
