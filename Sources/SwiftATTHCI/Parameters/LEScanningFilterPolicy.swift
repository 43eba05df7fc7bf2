/// Which advertising packets a scanner reports (Scanning_Filter_Policy).
/// Core 5.4 Vol 4 Part E §7.8.10.
///
/// The extended policies (which also report directed advertising to an unresolved
/// resolvable private address) need the Extended Scanner Filter Policies feature.
public enum LEScanningFilterPolicy: UInt8, Sendable, Hashable, CaseIterable {
    case basicUnfiltered = 0x00
    /// Only advertisers on the Filter Accept List.
    case basicFiltered = 0x01
    case extendedUnfiltered = 0x02
    case extendedFiltered = 0x03
}
