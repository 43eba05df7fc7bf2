/// Who turns a bonded peer's resolvable private addresses into its identity address
/// (Core 5.4 Vol 6 Part B §1.3.2.3, §6): `Controller.addressResolution`.
///
/// Either way the host resolves whatever reaches it unresolved — with each bond's IRK,
/// in `IdentityResolver` and the bond store — so bonds beyond the list's capacity, and
/// a controller that lists the commands without resolving (Bumble's), still find their
/// peers. Events name a resolved peer by its identity on both paths.
public enum AddressResolution: Sendable, Hashable, CustomStringConvertible {
    /// The controller resolves with its resolving list, which holds `capacity` entries
    /// (LE Read Resolving List Size). The host keeps it in step with the bonds: before
    /// each start of advertising, scanning or connecting it puts every bonded peer with an
    /// IRK there (the most recent `capacity` of them), each in device privacy mode.
    case controller(capacity: Int)
    /// The host resolves: the controller lacks LL Privacy, one of LE Add Device To
    /// Resolving List, LE Clear Resolving List, LE Read Resolving List Size, LE Set
    /// Address Resolution Enable and LE Set Privacy Mode, or left one unanswered.
    case host

    public var description: String {
        switch self {
        case let .controller(capacity): return "the controller's resolving list (\(capacity) entries)"
        case .host: return "the host"
        }
    }
}
