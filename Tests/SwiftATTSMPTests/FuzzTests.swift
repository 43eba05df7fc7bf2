import SwiftATTCore
import SwiftATTSMP
import Testing
import TestSupport

/// Seeded random input never traps: it decodes, or fails with a typed error. Since the
/// codec keeps every octet it accepts, whatever decodes re-encodes to exactly the input.
@Suite("Fuzz")
struct FuzzTests {
    @Test("300k random octet strings, mostly with a defined code")
    func randomInputs() {
        var rng = SplitMix64(seed: 0x5EC0_0DE5)
        let lengths = SMPCode.allCases.map(\.pduLength)
        var decoded = 0
        var failures: [SMPDecodingError: Int] = [:]
        for _ in 0..<300_000 {
            // A defined code three times in four; the length its command needs half the
            // time (so the fields, not only the length check, are exercised), else any
            // length up to one more than the longest PDU.
            let code = Int.random(in: 0..<4, using: &rng) == 0
                ? UInt8.random(in: 0...255, using: &rng)
                : UInt8.random(in: 0x01...0x0E, using: &rng)
            let length = Bool.random(using: &rng)
                ? (SMPCode(rawValue: code)?.pduLength ?? lengths.randomElement(using: &rng)!)
                : Int.random(in: 0...66, using: &rng)
            var bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &rng) }
            if length > 0 { bytes[0] = code }
            switch Result(catching: { () throws(SMPDecodingError) in try SMPPDU(decoding: bytes) }) {
            case let .success(pdu):
                decoded += 1
                guard pdu.bytes == bytes else {
                    Issue.record("\(Hex.encode(bytes)) re-encodes as \(Hex.encode(pdu.bytes))")
                    return
                }
            case let .failure(error):
                failures[error.kind, default: 0] += 1
                #expect(!error.description.isEmpty)
            }
        }
        #expect(decoded > 50_000, "most inputs of the right length decode: \(decoded)")
        #expect(failures.count == 4, "every kind of error occurs: \(failures)")
    }

    @Test("100k mutated golden vectors: flipped, cut, extended")
    func mutatedVectors() {
        var rng = SplitMix64(seed: 0xC0DE_F00D)
        let seeds = SMPVector.all.map(\.bytes)
        for _ in 0..<100_000 {
            var bytes = seeds.randomElement(using: &rng)!
            for _ in 0..<Int.random(in: 1...3, using: &rng) {
                bytes[Int.random(in: 0..<bytes.count, using: &rng)] = UInt8.random(in: 0...255, using: &rng)
            }
            switch Int.random(in: 0..<4, using: &rng) {
            case 0: bytes = Array(bytes.prefix(Int.random(in: 0...bytes.count, using: &rng)))
            case 1: bytes += (0..<Int.random(in: 1...8, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
            default: break
            }
            // From a slice with a nonzero start index, as an L2CAP payload is.
            let framed = [0xAA, 0xBB] + bytes
            guard let pdu = try? SMPPDU(decoding: framed[2...]) else { continue }
            #expect(pdu.bytes == bytes, "\(Hex.encode(bytes))")
        }
    }
}

extension SMPDecodingError {
    /// The case alone, for counting which errors the fuzz reached.
    var kind: SMPDecodingError {
        switch self {
        case .empty: return .empty
        case .unknownCode: return .unknownCode(0)
        case .invalidLength: return .invalidLength(code: .pairingRequest, expected: 0, actual: 0)
        case .reservedValue: return .reservedValue(code: .pairingRequest, field: .ioCapability, value: 0)
        }
    }
}
