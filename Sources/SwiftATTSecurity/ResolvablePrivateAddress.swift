import SwiftATTCore
import SwiftATTCrypto

/// Resolvable private addresses (Core 5.4 Vol 6 Part B §1.3.2.2–§1.3.2.3): 24 bits of
/// `prand` (the top two bits 0b01) above a 24-bit hash ah(IRK, prand), so that only a
/// device holding the IRK can tell that a changing address belongs to one identity.
public enum ResolvablePrivateAddress {
    /// Whether `irk` generated `address`.
    public static func resolves(_ address: BluetoothAddress, with irk: UInt128) -> Bool {
        guard address.kind == .random, address.randomSubtype == .resolvablePrivate else { return false }
        let prand = UInt32(truncatingIfNeeded: address.value >> 24)
        let hash = UInt32(truncatingIfNeeded: address.value & 0xFF_FFFF)
        return SecurityFunctions.ah(irk: irk, prand: prand) == hash
    }

    /// A fresh resolvable private address for `irk`: random prand bits (neither all zero
    /// nor all one) with 0b01 on top.
    public static func generate(irk: UInt128) -> BluetoothAddress {
        var random = UInt32(truncatingIfNeeded: SecureRandom.uint64()) & 0x3F_FFFF
        if random == 0 || random == 0x3F_FFFF { random ^= 1 }
        let prand = 0x40_0000 | random
        let hash = SecurityFunctions.ah(irk: irk, prand: prand)
        return BluetoothAddress(UInt64(prand) << 24 | UInt64(hash), kind: .random)
    }
}
