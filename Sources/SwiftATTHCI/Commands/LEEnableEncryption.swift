import SwiftATTCore

/// HCI_LE_Enable_Encryption (called LE Start Encryption in older versions of the spec):
/// a central starts or refreshes encryption with a key; answered by Command Status, then
/// Encryption Change or Encryption Key Refresh Complete. Core 5.4 Vol 4 Part E §7.8.24.
public struct LEEnableEncryption: HCICommand, Hashable {
    @inlinable public static var opcode: HCIOpcode { HCIOpcode(ogf: 0x08, ocf: 0x0019) }
    public static let completion = HCICommandCompletion.commandStatus
    /// Connection_Handle: the connection, as the controller numbers it.
    public var connectionHandle: UInt16
    /// Random_Number (Rand): 0 for LE Secure Connections keys.
    public var randomNumber: UInt64
    /// Encrypted_Diversifier (EDIV): 0 for LE Secure Connections keys.
    public var encryptedDiversifier: UInt16
    /// Long_Term_Key, least significant octet first on the wire.
    public var longTermKey: UInt128

    /// HCI_LE_Enable_Encryption with these parameters.
    public init(connectionHandle: UInt16, randomNumber: UInt64 = 0, encryptedDiversifier: UInt16 = 0,
                longTermKey: UInt128) {
        self.connectionHandle = connectionHandle
        self.randomNumber = randomNumber
        self.encryptedDiversifier = encryptedDiversifier
        self.longTermKey = longTermKey
    }

    public var parametersLength: Int { 28 }

    public func encodeParameters(into writer: inout ByteWriter) {
        writer.write(connectionHandle)
        writer.write(randomNumber)
        writer.write(encryptedDiversifier)
        writer.write(longTermKey)
    }

    public init(parameters p: borrowing ArraySlice<UInt8>) throws(HCIDecodingError) {
        try HCIWire.check(p, "LE Enable Encryption parameters", length: 28)
        connectionHandle = p.littleEndianUInt16(at: 0)
        randomNumber = p.littleEndianUInt64(at: 2)
        encryptedDiversifier = p.littleEndianUInt16(at: 10)
        longTermKey = p.littleEndianUInt128(at: 12)
    }
}

/// The pre-5.x name of `LEEnableEncryption`.
public typealias LEStartEncryption = LEEnableEncryption
