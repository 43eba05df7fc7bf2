/// Which address the controller uses for itself when advertising, scanning or initiating
/// (Own_Address_Type). Core 5.4 Vol 4 Part E §7.8.5.
///
/// On Bumble's controller use `.random` after LE Set Random Address (BENCH.md quirk 2).
public enum LEOwnAddressType: UInt8, Sendable, Hashable, CaseIterable {
    /// The controller's public address.
    case `public` = 0x00
    /// The random address set with LE Set Random Address.
    case random = 0x01
    /// A resolvable private address from the resolving list, else the public address.
    case resolvablePrivateOrPublic = 0x02
    /// A resolvable private address from the resolving list, else the random address.
    case resolvablePrivateOrRandom = 0x03
}
