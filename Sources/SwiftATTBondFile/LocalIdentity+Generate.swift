import SwiftATTCore
import SwiftATTCrypto
import SwiftATTSecurity

extension LocalIdentity {
    /// A new identity for an adapter: a static random address and an IRK, both from the
    /// secure generator, since a peer that could guess the IRK could follow this device
    /// under every resolvable private address it ever uses.
    public static func generate() -> LocalIdentity {
        var address: BluetoothAddress?
        while address == nil {
            address = staticRandomAddress(from: SecureRandom.bytes(6).reduce(0) { $0 << 8 | UInt64($1) })
        }
        return LocalIdentity(identityResolvingKey: SecureRandom.uint128(), address: address!)
    }

    /// A static random address made of 48 random bits: the top two bits set to 0b11, and
    /// the other 46 neither all zeros nor all ones (Core 5.4 Vol 6 Part B §1.3.2.1); nil
    /// when `bits` are one of those two, for the caller to draw again rather than to
    /// bend a random value towards a fixed one.
    static func staticRandomAddress(from bits: UInt64) -> BluetoothAddress? {
        let random = bits & 0x3FFF_FFFF_FFFF
        guard random != 0, random != 0x3FFF_FFFF_FFFF else { return nil }
        return BluetoothAddress(0xC000_0000_0000 | random, kind: .random)
    }
}
