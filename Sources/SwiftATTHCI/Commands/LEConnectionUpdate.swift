import SwiftATTCore

/// HCI_LE_Connection_Update: ask for new connection parameters; answered by Command
/// Status, then LE Connection Update Complete. Core 5.4 Vol 4 Part E §7.8.18.
public struct LEConnectionUpdate: HCICommand, Hashable {
    @inlinable public static var opcode: HCIOpcode { HCIOpcode(ogf: 0x08, ocf: 0x0013) }
    public static let completion = HCICommandCompletion.commandStatus
    /// Connection_Handle: the connection, as the controller numbers it.
    public var connectionHandle: UInt16
    /// The connection interval, latency, supervision timeout and connection event lengths to ask
    /// for.
    public var connectionParameters: LEConnectionParameters

    /// HCI_LE_Connection_Update with these parameters.
    public init(connectionHandle: UInt16, connectionParameters: LEConnectionParameters) {
        self.connectionHandle = connectionHandle
        self.connectionParameters = connectionParameters
    }

    public var parametersLength: Int { 14 }

    public func encodeParameters(into writer: inout ByteWriter) {
        writer.write(connectionHandle)
        connectionParameters.encode(into: &writer)
    }

    public init(parameters p: borrowing ArraySlice<UInt8>) throws(HCIDecodingError) {
        try HCIWire.check(p, "LE Connection Update parameters", length: 14)
        connectionHandle = p.littleEndianUInt16(at: 0)
        connectionParameters = LEConnectionParameters(p, at: 2)
    }
}
