/// HCI_LE_Clear_Advertising_Sets: delete every extended advertising set.
/// Core 5.4 Vol 4 Part E §7.8.60.
public struct LEClearAdvertisingSets: HCIParameterlessCommand, Hashable {
    @inlinable public static var opcode: HCIOpcode { HCIOpcode(ogf: 0x08, ocf: 0x003D) }
    public init() {}
}
