import SwiftATTCore
@testable import SwiftATTHCI
import Testing
import TestSupport

/// Seeded random input never traps: it decodes, or fails with a typed error. What
/// decodes re-encodes to bytes that decode to the same value.
@Suite("Fuzz")
struct FuzzTests {
    /// Event codes worth hitting often: every decoded one, LE Meta most of all.
    static let codes: [UInt8] = [0x05, 0x08, 0x0C, 0x0E, 0x0F, 0x10, 0x13, 0x30, 0x3E, 0x3E, 0x3E, 0x3E]
    static let subevents: [UInt8] = [0x01, 0x02, 0x03, 0x04, 0x05, 0x07, 0x0A, 0x0C, 0x0D, 0x11, 0x12, 0x14, 0x29, 0x06]

    @Test("100k random and mutated event packets")
    func events() {
        var rng = SplitMix64(seed: 0x5EED_0F_1C1)
        let seeds = EventVector.all.map(\.packet)
        var decoded = 0
        for i in 0..<100_000 {
            var packet: [UInt8]
            if i % 2 == 0 {
                // Random: a plausible header, random parameters, usually a consistent length.
                let n = Int.random(in: 0...64, using: &rng)
                packet = [Self.codes.randomElement(using: &rng)!, UInt8(n)]
                packet += (0..<n).map { _ in UInt8.random(in: 0...255, using: &rng) }
                if packet[0] == 0x3E, n > 0 { packet[2] = Self.subevents.randomElement(using: &rng)! }
                if packet[0] == 0x3E, n > 1, Bool.random(using: &rng) { packet[3] = UInt8.random(in: 0...3, using: &rng) }
                if Int.random(in: 0..<8, using: &rng) == 0 { packet[1] = UInt8.random(in: 0...255, using: &rng) }
            } else {
                // Mutated golden vector: flip octets, cut or extend, keep the length consistent.
                packet = seeds.randomElement(using: &rng)!
                for _ in 0..<Int.random(in: 1...3, using: &rng) {
                    let at = Int.random(in: 0..<packet.count, using: &rng)
                    packet[at] = UInt8.random(in: 0...255, using: &rng)
                }
                switch Int.random(in: 0..<4, using: &rng) {
                case 0: packet = Array(packet.prefix(Int.random(in: 0...packet.count, using: &rng)))
                case 1: packet += (0..<Int.random(in: 1...8, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
                default: break
                }
                if packet.count >= 2, Int.random(in: 0..<4, using: &rng) != 0 { packet[1] = UInt8(truncatingIfNeeded: packet.count - 2) }
            }
            guard let event = try? HCIEvent(parsing: packet[...]) else { continue }
            decoded += 1
            let again = event.encoded()
            let reparsed = try? HCIEvent(parsing: again[...])
            #expect(reparsed == event, "\(Hex.encode(packet)) → \(Hex.encode(again))")
            if reparsed != event { return }
        }
        #expect(decoded > 10_000, "the fuzzer mostly exercises decoding, not header checks")
    }

    @Test("20k random and mutated command parameter blocks through the registry")
    func commands() {
        var rng = SplitMix64(seed: 0xC0FFEE)
        let vectors = CommandVector.all
        for i in 0..<20_000 {
            let v = vectors.randomElement(using: &rng)!
            var p = v.parameters
            if i % 2 == 0 || p.isEmpty {
                p = (0..<Int.random(in: 0...64, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
            } else {
                for _ in 0..<Int.random(in: 1...3, using: &rng) {
                    p[Int.random(in: 0..<p.count, using: &rng)] = UInt8.random(in: 0...255, using: &rng)
                }
            }
            guard let command = try? v.type.init(parameters: p[...]) else { continue }
            let again = command.packet
            let reparsed = try? v.type.init(parameters: again.parameters)
            #expect(reparsed.map { $0.packet == again } == true, "\(v.name): \(Hex.encode(p))")
        }
    }

    @Test("20k random return parameter blocks for every known command")
    func returnParameters() {
        var rng = SplitMix64(seed: 0xBADC0DE)
        let entries = HCICommandNames.all
        for _ in 0..<20_000 {
            let e = entries.randomElement(using: &rng)!
            let n = Int.random(in: 0...70, using: &rng)
            var p = (0..<n).map { _ in UInt8.random(in: 0...255, using: &rng) }
            if n > 0, Bool.random(using: &rng) { p[0] = 0 }
            let complete = CommandComplete(numHCICommandPackets: 1, commandOpcode: e.opcode, returnParameters: p[...])
            _ = try? complete.decodedReturnParameters()
        }
    }
}
