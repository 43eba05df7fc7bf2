import SwiftATTCore

/// HCI_Encryption_Change [v1]: encryption on a connection was turned on or off.
/// Core 5.4 Vol 4 Part E §7.7.8.
public struct EncryptionChange: HCIEventParameters, Hashable {
    public static let code: UInt8 = 0x08
    /// Status: success, or why it failed.
    public var status: HCIStatus
    /// Connection_Handle: the connection, as the controller numbers it.
    public var connectionHandle: UInt16
    /// Encryption_Enabled: 0x00 off, 0x01 on (AES-CCM on LE), 0x02 AES-CCM on BR/EDR.
    public var encryptionEnabled: UInt8

    /// HCI_Encryption_Change [v1] with these parameters, as a controller (an emulated one, a test)
    /// sends it.
    public init(status: HCIStatus = .success, connectionHandle: UInt16, encryptionEnabled: UInt8) {
        self.status = status
        self.connectionHandle = connectionHandle
        self.encryptionEnabled = encryptionEnabled
    }

    /// Whether the link is encrypted now.
    public var isEncrypted: Bool { status.isSuccess && encryptionEnabled != 0 }

    public init(parameters p: borrowing ArraySlice<UInt8>) throws(HCIDecodingError) {
        try HCIWire.check(p, "Encryption Change", length: 4)
        status = HCIStatus(p.byte(at: 0))
        connectionHandle = p.littleEndianUInt16(at: 1)
        encryptionEnabled = p.byte(at: 3)
    }

    public var parametersLength: Int { 4 }

    public func encodeParameters(into writer: inout ByteWriter) {
        writer.write(status.rawValue)
        writer.write(connectionHandle)
        writer.write(encryptionEnabled)
    }
}
