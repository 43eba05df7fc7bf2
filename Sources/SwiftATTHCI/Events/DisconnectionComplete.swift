import SwiftATTCore

/// HCI_Disconnection_Complete: a connection ended (or a Disconnect failed).
/// Core 5.4 Vol 4 Part E §7.7.5.
public struct DisconnectionComplete: HCIEventParameters, Hashable {
    public static let code: UInt8 = 0x05
    /// Status: success, or why it failed.
    public var status: HCIStatus
    /// Connection_Handle: the connection, as the controller numbers it.
    public var connectionHandle: UInt16
    /// Why the connection ended (0x13 when the peer's user ended it, 0x16 when this host did,
    /// 0x08 on supervision timeout).
    public var reason: HCIStatus

    /// HCI_Disconnection_Complete with these parameters, as a controller (an emulated one, a test)
    /// sends it.
    public init(status: HCIStatus = .success, connectionHandle: UInt16, reason: HCIStatus) {
        self.status = status
        self.connectionHandle = connectionHandle
        self.reason = reason
    }

    public init(parameters p: borrowing ArraySlice<UInt8>) throws(HCIDecodingError) {
        try HCIWire.check(p, "Disconnection Complete", length: 4)
        status = HCIStatus(p.byte(at: 0))
        connectionHandle = p.littleEndianUInt16(at: 1)
        reason = HCIStatus(p.byte(at: 3))
    }

    public var parametersLength: Int { 4 }

    public func encodeParameters(into writer: inout ByteWriter) {
        writer.write(status.rawValue)
        writer.write(connectionHandle)
        writer.write(reason.rawValue)
    }
}
