/// HCI_LE_Create_Connection_Cancel: stop initiating; the pending LE Create Connection then
/// ends with a Connection Complete whose status is Unknown Connection Identifier (Bumble
/// sends none: BENCH.md quirk 7). Core 5.4 Vol 4 Part E §7.8.13.
public struct LECreateConnectionCancel: HCIParameterlessCommand, Hashable {
    @inlinable public static var opcode: HCIOpcode { HCIOpcode(ogf: 0x08, ocf: 0x000E) }
    public init() {}
}
