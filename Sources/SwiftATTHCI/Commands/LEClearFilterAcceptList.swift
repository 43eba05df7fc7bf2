/// HCI_LE_Clear_Filter_Accept_List: empty the list filter policies consult.
/// Core 5.4 Vol 4 Part E §7.8.15.
public struct LEClearFilterAcceptList: HCIParameterlessCommand, Hashable {
    @inlinable public static var opcode: HCIOpcode { HCIOpcode(ogf: 0x08, ocf: 0x0010) }
    public init() {}
}
