/// Which advertising packets a scanner reports (Scanning_Filter_Policy).
/// Core 5.4 Vol 4 Part E §7.8.10.
///
/// The extended policies (which also report directed advertising to an unresolved
/// resolvable private address) need the Extended Scanner Filter Policies feature.
public enum LEScanningFilterPolicy: UInt8, Sendable, Hashable, CaseIterable {
    /// Every advertiser, except directed advertising not to this device.
    case basicUnfiltered = 0x00
    /// Only advertisers on the Filter Accept List.
    case basicFiltered = 0x01
    /// As `basicUnfiltered`, plus directed advertising to an unresolved private address.
    case extendedUnfiltered = 0x02
    /// As `basicFiltered`, plus directed advertising to an unresolved private address.
    case extendedFiltered = 0x03
}
