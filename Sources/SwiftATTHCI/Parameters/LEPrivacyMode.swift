/// How a controller treats a resolving-list entry's peer that shows its identity
/// address instead of a resolvable private address (Privacy_Mode, Core 5.4 Vol 4 Part E
/// §7.8.77; Vol 6 Part B §4.7).
public enum LEPrivacyMode: UInt8, Sendable, Hashable, CaseIterable {
    /// The default: a peer with an IRK in the list is heard only under resolvable private
    /// addresses; its identity address is ignored.
    case network = 0x00
    /// The peer is heard under its identity address as well, as a bonded device that does
    /// not use privacy needs.
    case device = 0x01
}
