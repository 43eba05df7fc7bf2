import SwiftATTCore

/// HCI_Command_Status: a command was accepted (or refused) and will finish later.
/// Core 5.4 Vol 4 Part E §7.7.15.
public struct CommandStatus: HCIEventParameters, Hashable {
    public static let code: UInt8 = 0x0F
    public var status: HCIStatus
    public var numHCICommandPackets: UInt8
    public var commandOpcode: HCIOpcode

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
