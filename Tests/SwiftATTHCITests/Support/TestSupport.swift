import SwiftATTCore
import Foundation
@testable import SwiftATTHCI

/// Bytes from a vector's hex (spaces allowed for readability); a malformed literal
/// yields a marker that fails every comparison loudly.
func bytes(_ hex: String) -> [UInt8] {
    (try? Hex.decode(hex)) ?? [0xDE, 0xAD, 0xBE, 0xEF]
}

/// Addresses used across the vectors (the capture's peers and a public one).
let central = BluetoothAddress(0xC05A_1700_0001, kind: .random)
let peripheral = BluetoothAddress(0xC05A_1700_0002, kind: .random)
let publicPeer = BluetoothAddress(0x1122_3344_5566, kind: .public)
let resolvable = BluetoothAddress(0x4B11_2233_4455, kind: .random)
let zeroAddress = BluetoothAddress(0, kind: .public)

/// A seeded generator (SplitMix64) so fuzz runs are reproducible.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// `Fixtures/`, found from this file's path so tests run from any directory.
enum Fixtures {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Support
        .deletingLastPathComponent()  // HCITests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // package root
        .appendingPathComponent("Fixtures")

    static func load(_ path: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: root.appendingPathComponent(path)))
    }
}

/// A whole command packet (no H4 indicator) for a command's parameters.
func commandPacketBytes(_ opcode: HCIOpcode, _ parameters: [UInt8]) -> [UInt8] {
    [UInt8(opcode.rawValue & 0xFF), UInt8(opcode.rawValue >> 8), UInt8(parameters.count)] + parameters
}
