import SwiftATTCore

/// HCI_Encryption_Key_Refresh_Complete: an encrypted connection switched to a new key
/// (LE Enable Encryption on an already encrypted link). Core 5.4 Vol 4 Part E §7.7.39.
public struct EncryptionKeyRefreshComplete: HCIEventParameters, Hashable {
    public static let code: UInt8 = 0x30
    /// Status: success, or why it failed.
    public var status: HCIStatus
    /// Connection_Handle: the connection, as the controller numbers it.
    public var connectionHandle: UInt16

    /// HCI_Encryption_Key_Refresh_Complete with these parameters, as a controller (an emulated one,
    /// a test) sends it.
    public init(status: HCIStatus = .success, connectionHandle: UInt16) {
        self.status = status
        self.connectionHandle = connectionHandle
    }

    public init(parameters p: borrowing ArraySlice<UInt8>) throws(HCIDecodingError) {
        try HCIWire.check(p, "Encryption Key Refresh Complete", length: 3)
        status = HCIStatus(p.byte(at: 0))
        connectionHandle = p.littleEndianUInt16(at: 1)
    }

    public var parametersLength: Int { 3 }

    public func encodeParameters(into writer: inout ByteWriter) {
        writer.write(status.rawValue)
        writer.write(connectionHandle)
    }
}
