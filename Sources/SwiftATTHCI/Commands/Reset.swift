/// HCI_Reset: return the controller to its power-on state. Core 5.4 Vol 4 Part E §7.3.2.
/// (Bumble's virtual controller resets nothing: see BENCH.md.)
public struct Reset: HCIParameterlessCommand, Hashable {
    @inlinable public static var opcode: HCIOpcode { HCIOpcode(ogf: 0x03, ocf: 0x0003) }
    public init() {}
}
