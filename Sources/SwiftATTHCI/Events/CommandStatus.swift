import SwiftATTCore

/// HCI_Command_Status: a command was accepted (or refused) and will finish later.
/// Core 5.4 Vol 4 Part E §7.7.15.
public struct CommandStatus: HCIEventParameters, Hashable {
    public static let code: UInt8 = 0x0F
    /// Status: success, or why it failed.
    public var status: HCIStatus
    /// Num_HCI_Command_Packets: how many commands the controller takes now.
    public var numHCICommandPackets: UInt8
    /// Command_Opcode: the command this event answers.
    public var commandOpcode: HCIOpcode

    /// HCI_Command_Status with these parameters, as a controller (an emulated one, a test) sends
    /// it.
    public init(status: HCIStatus, numHCICommandPackets: UInt8, commandOpcode: HCIOpcode) {
        self.status = status
        self.numHCICommandPackets = numHCICommandPackets
        self.commandOpcode = commandOpcode
    }

    public init(parameters p: borrowing ArraySlice<UInt8>) throws(HCIDecodingError) {
        try HCIWire.check(p, "Command Status", length: 4)
        status = HCIStatus(p.byte(at: 0))
        numHCICommandPackets = p.byte(at: 1)
        commandOpcode = HCIOpcode(rawValue: p.littleEndianUInt16(at: 2))
    }

    public var parametersLength: Int { 4 }

    public func encodeParameters(into writer: inout ByteWriter) {
        writer.write(status.rawValue)
        writer.write(numHCICommandPackets)
        writer.write(commandOpcode.rawValue)
    }
}
