import SwiftATTCore

/// HCI_Read_Encryption_Key_Size: how many octets of the key encrypting a connection are
/// secret. Core 5.4 Vol 4 Part E §7.5.7.
///
/// On LE the answer says little: SMP negotiates the key size and the host shortens the
/// LTK itself (Vol 3 Part H §2.3.4) before the controller sees it as 16 octets.
public struct ReadEncryptionKeySize: HCICommand, Hashable {
    @inlinable public static var opcode: HCIOpcode { HCIOpcode(ogf: 0x05, ocf: 0x0008) }
    /// Connection_Handle: the connection, as the controller numbers it.
    public var connectionHandle: UInt16

    /// HCI_Read_Encryption_Key_Size with these parameters.
    public init(connectionHandle: UInt16) { self.connectionHandle = connectionHandle }

    /// The parameters' fields, by the octets each covers.
    private enum Field {
        static var connectionHandle: Range<Int> { 0..<2 }
        static var length: Int { 2 }
    }

    public var parametersLength: Int { Field.length }

    public func encodeParameters(into writer: inout ByteWriter) {
        writer.write(connectionHandle)
    }

    public init(parameters p: borrowing ArraySlice<UInt8>) throws(HCIDecodingError) {
        try HCIWire.check(p, "Read Encryption Key Size parameters", length: Field.length)
        connectionHandle = p.littleEndianUInt16(at: Field.connectionHandle)
    }

    public struct ReturnParameters: HCIReturnParameters, ByteEncodable, Hashable {
        public var status: HCIStatus
        /// Connection_Handle: the connection, as the controller numbers it.
        public var connectionHandle: UInt16
        /// Key_Size in octets (0x01–0x10).
        public var keySize: UInt8

        /// Return parameters as a controller returns them (an emulated one, a test).
        public init(status: HCIStatus, connectionHandle: UInt16, keySize: UInt8) {
            self.status = status
            self.connectionHandle = connectionHandle
            self.keySize = keySize
        }

        /// The return parameters' fields, by the octets each covers.
        private enum Field {
            static var status: Int { 0 }
            static var connectionHandle: Range<Int> { 1..<3 }
            static var keySize: Int { 3 }
            static var length: Int { 4 }
        }

        public init(returnParameters: borrowing ArraySlice<UInt8>) throws(HCIDecodingError) {
            let p = try HCIWire.returnBlock(returnParameters, "Read Encryption Key Size return parameters", length: Field.length)
            status = HCIStatus(p.byte(at: Field.status))
            connectionHandle = p.littleEndianUInt16(at: Field.connectionHandle)
            keySize = p.byte(at: Field.keySize)
        }

        public var encodedLength: Int { Field.length }

        public func encode(into writer: inout ByteWriter) {
            writer.write(status.rawValue)
            writer.write(connectionHandle)
            writer.write(keySize)
        }
    }
}
