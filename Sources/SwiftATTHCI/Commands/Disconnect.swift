import SwiftATTCore

/// HCI_Disconnect: end a connection; answered by Command Status, then Disconnection
/// Complete. Core 5.4 Vol 4 Part E §7.1.6.
public struct Disconnect: HCICommand, Hashable {
    @inlinable public static var opcode: HCIOpcode { HCIOpcode(ogf: 0x01, ocf: 0x0006) }
    public static let completion = HCICommandCompletion.commandStatus
    /// Connection_Handle: the connection, as the controller numbers it.
    public var connectionHandle: UInt16
    /// Reason, usually Remote User Terminated Connection (0x13).
    public var reason: HCIStatus

    /// HCI_Disconnect with these parameters.
    public init(connectionHandle: UInt16, reason: HCIStatus = .remoteUserTerminatedConnection) {
        self.connectionHandle = connectionHandle
        self.reason = reason
    }

    public var parametersLength: Int { 3 }

    public func encodeParameters(into writer: inout ByteWriter) {
        writer.write(connectionHandle)
        writer.write(reason.rawValue)
    }

    public init(parameters p: borrowing ArraySlice<UInt8>) throws(HCIDecodingError) {
        try HCIWire.check(p, "Disconnect parameters", length: 3)
        connectionHandle = p.littleEndianUInt16(at: 0)
        reason = HCIStatus(p.byte(at: 2))
    }
}
