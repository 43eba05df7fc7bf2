import SwiftATTCore

/// HCI_LE_Long_Term_Key_Request (LE Meta subevent 0x05): the central started encryption;
/// the peripheral's host answers with LE Long Term Key Request (Negative) Reply.
/// Core 5.4 Vol 4 Part E §7.7.65.5.
public struct LELongTermKeyRequest: LEMetaSubevent, Hashable {
    public static let subeventCode: UInt8 = 0x05
    /// Connection_Handle: the connection, as the controller numbers it.
    public var connectionHandle: UInt16
    /// Random_Number (Rand): 0 for LE Secure Connections.
    public var randomNumber: UInt64
    /// Encrypted_Diversifier (EDIV): 0 for LE Secure Connections.
    public var encryptedDiversifier: UInt16

    /// HCI_LE_Long_Term_Key_Request with these parameters, as a controller (an emulated one, a
    /// test) sends it.
    public init(connectionHandle: UInt16, randomNumber: UInt64 = 0, encryptedDiversifier: UInt16 = 0) {
        self.connectionHandle = connectionHandle
        self.randomNumber = randomNumber
        self.encryptedDiversifier = encryptedDiversifier
    }

    public init(parameters p: borrowing ArraySlice<UInt8>) throws(HCIDecodingError) {
        try HCIWire.check(p, "LE Long Term Key Request", length: 12)
        connectionHandle = p.littleEndianUInt16(at: 0)
        randomNumber = p.littleEndianUInt64(at: 2)
        encryptedDiversifier = p.littleEndianUInt16(at: 10)
    }

    public var parametersLength: Int { 12 }

    public func encodeParameters(into writer: inout ByteWriter) {
        writer.write(connectionHandle)
        writer.write(randomNumber)
        writer.write(encryptedDiversifier)
    }
}
