import SwiftATTCore

/// HCI_Command_Complete: a command finished; its return parameters follow.
/// Core 5.4 Vol 4 Part E §7.7.14.
public struct CommandComplete: HCIEventParameters, Hashable {
    public static let code: UInt8 = 0x0E
    /// How many more commands the controller accepts now (flow control).
    public var numHCICommandPackets: UInt8
    /// The command this completes (0x0000 only returns credits).
    public var commandOpcode: HCIOpcode
    /// Raw return parameters; `returnParameters(for:)` decodes them for a command type.
    public var returnParameters: ArraySlice<UInt8>

    /// HCI_Command_Complete with these parameters, as a controller (an emulated one, a test) sends
    /// it.
    public init(numHCICommandPackets: UInt8, commandOpcode: HCIOpcode, returnParameters: ArraySlice<UInt8>) {
        self.numHCICommandPackets = numHCICommandPackets
        self.commandOpcode = commandOpcode
        self.returnParameters = returnParameters
    }

    /// The Command Complete a controller sends for `command` with these return parameters.
    public init<C: HCICommand>(numHCICommandPackets: UInt8 = 1, command: C.Type, returnParameters: C.ReturnParameters)
    where C.ReturnParameters: ByteEncodable {
        self.init(numHCICommandPackets: numHCICommandPackets, commandOpcode: C.opcode,
                  returnParameters: returnParameters.encoded()[...])
    }

    public init(parameters p: borrowing ArraySlice<UInt8>) throws(HCIDecodingError) {
        try HCIWire.check(p, "Command Complete", atLeast: 3)
        numHCICommandPackets = p.byte(at: 0)
        commandOpcode = HCIOpcode(rawValue: p.littleEndianUInt16(at: 1))
        returnParameters = p.bytes(from: 3)
    }

    public var parametersLength: Int { 3 + returnParameters.count }

    public func encodeParameters(into writer: inout ByteWriter) {
        writer.write(numHCICommandPackets)
        writer.write(commandOpcode.rawValue)
        writer.write(returnParameters)
    }

    /// The status, when there are return parameters.
    public var status: HCIStatus? { returnParameters.first.map(HCIStatus.init(rawValue:)) }

    /// Decodes the return parameters as `command`'s.
    @inlinable
    public func returnParameters<C: HCICommand>(for command: C.Type) throws(HCIDecodingError) -> C.ReturnParameters {
        try C.ReturnParameters(returnParameters: returnParameters)
    }

    /// Decodes the return parameters as those of the command the opcode names: `nil` for
    /// an opcode swift-att does not know (or 0x0000).
    public func decodedReturnParameters() throws(HCIDecodingError) -> (any HCIReturnParameters)? {
        guard let entry = HCICommandNames.entry(for: commandOpcode) else { return nil }
        return try Self.decode(entry.type, returnParameters)
    }

    private static func decode<C: HCICommand>(
        _ command: C.Type, _ bytes: ArraySlice<UInt8>
    ) throws(HCIDecodingError) -> any HCIReturnParameters {
        try C.ReturnParameters(returnParameters: bytes)
    }
}
