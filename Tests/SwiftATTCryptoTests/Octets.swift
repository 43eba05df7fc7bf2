import SwiftATTCore

/// The octets spelled by hex digits grouped as the specification prints them
/// ("20b003d2 f297be2c …"), most significant first. A typo gives no octets, which the
/// test reading the table then fails on.
func octets(_ hex: String) -> [UInt8] {
    (try? Hex.decode(hex)) ?? []
}
