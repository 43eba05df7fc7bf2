import SwiftATTCore

/// HCI_LE_Encrypt: AES-128 of one block with a given key, done by the controller (Bumble
/// never answers: BENCH.md quirk 1; SMP should do its own AES). Core 5.4 Vol 4 Part E §7.8.22.
///
/// Key, plaintext and result travel least significant octet first, so each is a
/// little-endian `UInt128` here.
public struct LEEncrypt: HCICommand, Hashable {
    @inlinable public static var opcode: HCIOpcode { HCIOpcode(ogf: 0x08, ocf: 0x0017) }
    /// Key: the AES-128 key, most significant octet first.
    public var key: UInt128
    /// Plaintext_Data: the block to encrypt, most significant octet first.
    public var plaintextData: UInt128

    /// HCI_LE_Encrypt with these parameters.
    public init(key: UInt128, plaintextData: UInt128) {
        self.key = key
        self.plaintextData = plaintextData
    }

    public var parametersLength: Int { 32 }

    public func encodeParameters(into writer: inout ByteWriter) {
        writer.write(key)
        writer.write(plaintextData)
    }

    public init(parameters p: borrowing ArraySlice<UInt8>) throws(HCIDecodingError) {
        try HCIWire.check(p, "LE Encrypt parameters", length: 32)
        key = p.littleEndianUInt128(at: 0)
        plaintextData = p.littleEndianUInt128(at: 16)
    }

    public struct ReturnParameters: HCIReturnParameters, ByteEncodable, Hashable {
        public var status: HCIStatus
        /// Encrypted_Data: the block encrypted, most significant octet first.
        public var encryptedData: UInt128

        /// Return parameters as a controller returns them (an emulated one, a test).
        public init(status: HCIStatus, encryptedData: UInt128) {
            self.status = status
            self.encryptedData = encryptedData
        }

        public init(returnParameters: borrowing ArraySlice<UInt8>) throws(HCIDecodingError) {
            let p = try HCIWire.returnBlock(returnParameters, "LE Encrypt return parameters", length: 17)
            status = HCIStatus(p.byte(at: 0))
            encryptedData = p.littleEndianUInt128(at: 1)
        }

        public var encodedLength: Int { 17 }

        public func encode(into writer: inout ByteWriter) {
            writer.write(status.rawValue)
            writer.write(encryptedData)
        }
    }
}
