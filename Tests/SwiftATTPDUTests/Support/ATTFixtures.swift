import SwiftATTPDU
import Testing
import TestSupport

extension FixtureJSON {
    /// The same value without informational `…Name` keys (Documentation/JSON.md: printed for
    /// people, ignored by `encode`), at every depth.
    var withoutInformationalNames: FixtureJSON {
        switch self {
        case .null, .bool, .int, .double, .string: return self
        case let .array(a): return .array(a.map(\.withoutInformationalNames))
        case let .object(o):
            return .object(o.filter { !$0.key.hasSuffix("Name") }.mapValues(\.withoutInformationalNames))
        }
    }
}

/// The tables in `Fixtures/att/`.
enum ATTFixtures {
    static func load<T: Decodable>(_ file: String, as type: T.Type) throws -> T {
        try FixtureFiles.decode(T.self, from: "att/" + file)
    }

    /// Bytes from the fixtures' lowercase hex, which the vectors guarantee is well formed
    /// (`vectorFilesAreWellFormed` checks it through `Hex.decode`).
    static func bytes(_ hex: String) -> [UInt8] {
        (try? Hex.decode(hex)) ?? []
    }
}

/// One entry of `vectors.json`: a valid PDU's bytes and its JSON form.
struct GoldenVector: Decodable, Sendable, CustomTestStringConvertible {
    let name: String
    let source: String
    let hex: String
    let fields: [String: FixtureJSON]

    var bytes: [UInt8] { ATTFixtures.bytes(hex) }
    var opcode: UInt8 { bytes.first ?? 0 }
    var testDescription: String { name }

    /// Every vector, or none when the file is missing or malformed; the
    /// `vectorFilesAreWellFormed` test then fails and says why.
    static let all: [GoldenVector] = (try? ATTFixtures.load("vectors.json", as: [GoldenVector].self)) ?? []
}

/// One entry of `malformed.json`: bytes that are not a PDU and the error they must raise.
struct MalformedVector: Decodable, Sendable, CustomTestStringConvertible {
    let name: String
    let hex: String
    /// The `ATTDecodingError` case name and its associated values.
    let error: String
    let values: [String: FixtureJSON]

    var bytes: [UInt8] { ATTFixtures.bytes(hex) }
    var testDescription: String { name }

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        name = try c.decode(String.self, forKey: Key(stringValue: "name"))
        hex = try c.decode(String.self, forKey: Key(stringValue: "hex"))
        error = try c.decode(String.self, forKey: Key(stringValue: "error"))
        var values: [String: FixtureJSON] = [:]
        for key in c.allKeys where !["name", "hex", "error"].contains(key.stringValue) {
            values[key.stringValue] = try c.decode(FixtureJSON.self, forKey: key)
        }
        self.values = values
    }

    /// The typed error the vector names, or `nil` when its keys do not spell one.
    var expectedError: ATTDecodingError? {
        func int(_ k: String) -> Int? { values[k]?.int }
        func byte(_ k: String) -> UInt8? { int(k).flatMap(UInt8.init(exactly:)) }
        func opcode(_ k: String = "opcode") -> ATTOpcode? { byte(k).map { ATTOpcode($0) } }
        switch error {
        case "empty":
            return .empty
        case "unknownOpcode":
            guard let op = opcode() else { return nil }
            return .unknownOpcode(op)
        case "opcodeMismatch":
            guard let e = opcode("expected"), let f = opcode("found") else { return nil }
            return .opcodeMismatch(expected: e, found: f)
        case "truncated":
            guard let op = opcode(), let need = int("need"), let have = int("have") else { return nil }
            return .truncated(op, need: need, have: have)
        case "invalidLength":
            guard let op = opcode(), let expected = int("expected"), let have = int("have") else { return nil }
            return .invalidLength(op, expected: expected, have: have)
        case "invalidUUIDLength":
            guard let op = opcode(), let n = int("byteCount") else { return nil }
            return .invalidUUIDLength(op, byteCount: n)
        case "invalidFormat":
            guard let f = byte("format") else { return nil }
            return .invalidFormat(f)
        case "invalidEntryLength":
            guard let op = opcode(), let length = int("length"),
                  let allowed = values["allowed"]?.array?.compactMap(\.int), allowed.count == 2
            else { return nil }
            return .invalidEntryLength(op, length: length, allowed: allowed[0]...allowed[1])
        case "lengthNotMultiple":
            guard let op = opcode(), let d = int("dataLength"), let e = int("entryLength") else { return nil }
            return .lengthNotMultiple(op, dataLength: d, entryLength: e)
        case "tooFewEntries":
            guard let op = opcode(), let count = int("count"), let minimum = int("minimum") else { return nil }
            return .tooFewEntries(op, count: count, minimum: minimum)
        case "valueTooLong":
            guard let op = opcode(), let length = int("length") else { return nil }
            return .valueTooLong(op, length: length)
        case "invalidExecuteWriteFlags":
            guard let f = byte("flags") else { return nil }
            return .invalidExecuteWriteFlags(f)
        case "invalidSignatureLength":
            guard let n = int("byteCount") else { return nil }
            return .invalidSignatureLength(n)
        case "tupleOverrun":
            guard let op = opcode(), let offset = int("offset"), let need = int("need"), let have = int("have")
            else { return nil }
            return .tupleOverrun(op, offset: offset, need: need, have: have)
        default:
            return nil
        }
    }

    static let all: [MalformedVector] = (try? ATTFixtures.load("malformed.json", as: [MalformedVector].self)) ?? []
}

/// Every PDU type, by opcode: the table a test walks to reach each concrete parser.
enum ATTPDUTypes {
    static let all: [any ATTPDUCodable.Type] = [
        ErrorResponse.self, ExchangeMTURequest.self, ExchangeMTUResponse.self,
        FindInformationRequest.self, FindInformationResponse.self,
        FindByTypeValueRequest.self, FindByTypeValueResponse.self,
        ReadByTypeRequest.self, ReadByTypeResponse.self, ReadRequest.self, ReadResponse.self,
        ReadBlobRequest.self, ReadBlobResponse.self, ReadMultipleRequest.self, ReadMultipleResponse.self,
        ReadByGroupTypeRequest.self, ReadByGroupTypeResponse.self, WriteRequest.self, WriteResponse.self,
        PrepareWriteRequest.self, PrepareWriteResponse.self, ExecuteWriteRequest.self, ExecuteWriteResponse.self,
        HandleValueNotification.self, HandleValueIndication.self, HandleValueConfirmation.self,
        ReadMultipleVariableRequest.self, ReadMultipleVariableResponse.self,
        MultipleHandleValueNotification.self, WriteCommand.self, SignedWriteCommand.self,
    ]

    static func type(for opcode: UInt8) -> (any ATTPDUCodable.Type)? {
        all.first { $0.opcode.rawValue == opcode }
    }

    /// The octets before any variable part: a shorter PDU is `truncated(need: this)`.
    /// Worked out from the §3.4 layouts, independently of the codec.
    static let fixedPartLength: [UInt8: Int] = [
        0x01: 5, 0x02: 3, 0x03: 3, 0x04: 5, 0x05: 2, 0x06: 7, 0x07: 1, 0x08: 7, 0x09: 2,
        0x0A: 3, 0x0B: 1, 0x0C: 5, 0x0D: 1, 0x0E: 1, 0x0F: 1, 0x10: 7, 0x11: 2, 0x12: 3,
        0x13: 1, 0x16: 5, 0x17: 5, 0x18: 2, 0x19: 1, 0x1B: 3, 0x1D: 3, 0x1E: 1, 0x20: 1,
        0x21: 1, 0x23: 1, 0x52: 3, 0xD2: 15,
    ]

    /// PDUs whose whole length is fixed: one byte more is `invalidLength`.
    static let fixedLengthOpcodes: Set<UInt8> = [0x01, 0x02, 0x03, 0x04, 0x0A, 0x0C, 0x13, 0x18, 0x19, 0x1E]
}
