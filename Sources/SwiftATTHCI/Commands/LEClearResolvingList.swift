/// HCI_LE_Clear_Resolving_List: empty the list of identities the controller resolves.
/// Core 5.4 Vol 4 Part E §7.8.40.
public struct LEClearResolvingList: HCIParameterlessCommand, Hashable {
    @inlinable public static var opcode: HCIOpcode { HCIOpcode(ogf: 0x08, ocf: 0x0029) }
    public init() {}
}
