import SwiftATTCore

/// HCI_LE_Rand: eight random octets from the controller. Core 5.4 Vol 4 Part E §7.8.23.
public struct LERand: HCIParameterlessCommand, Hashable {
    @inlinable public static var opcode: HCIOpcode { HCIOpcode(ogf: 0x08, ocf: 0x0018) }
    public init() {}

    public struct ReturnParameters: HCIReturnParameters, ByteEncodable, Hashable {
        public var status: HCIStatus
        /// Random_Number, read little-endian.
        public var randomNumber: UInt64

        /// Return parameters as a controller returns them (an emulated one, a test).
        public init(status: HCIStatus, randomNumber: UInt64) {
            self.status = status
            self.randomNumber = randomNumber
        }

        public init(returnParameters: borrowing ArraySlice<UInt8>) throws(HCIDecodingError) {
            let p = try HCIWire.returnBlock(returnParameters, "LE Rand return parameters", length: 9)
            status = HCIStatus(p.byte(at: 0))
            randomNumber = p.littleEndianUInt64(at: 1)
        }

        public var encodedLength: Int { 9 }

        public func encode(into writer: inout ByteWriter) {
            writer.write(status.rawValue)
            writer.write(randomNumber)
        }
    }
}
