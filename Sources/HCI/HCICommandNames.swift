/// Names of the commands swift-att knows, for logs, errors and `swift-att dump`.
enum HCICommandNames {
    static func name(of opcode: HCIOpcode) -> String? {
        switch opcode.rawValue {
        case Reset.opcode.rawValue: return "Reset"
        case ReadBDADDR.opcode.rawValue: return "Read BD_ADDR"
        case LESetRandomAddress.opcode.rawValue: return "LE Set Random Address"
        default: return nil
        }
    }
}
