import SwiftATTCore
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

/// A whole command packet (no H4 indicator) for a command's parameters.
func commandPacketBytes(_ opcode: HCIOpcode, _ parameters: [UInt8]) -> [UInt8] {
    [UInt8(opcode.rawValue & 0xFF), UInt8(opcode.rawValue >> 8), UInt8(parameters.count)] + parameters
}
