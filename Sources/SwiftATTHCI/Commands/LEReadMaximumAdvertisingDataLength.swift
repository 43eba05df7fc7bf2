import SwiftATTCore

/// HCI_LE_Read_Maximum_Advertising_Data_Length: the most advertising or scan response
/// data one extended set can hold. Core 5.4 Vol 4 Part E §7.8.57.
public struct LEReadMaximumAdvertisingDataLength: HCIParameterlessCommand, Hashable {
    @inlinable public static var opcode: HCIOpcode { HCIOpcode(ogf: 0x08, ocf: 0x003A) }
    public init() {}

    public struct ReturnParameters: HCIReturnParameters, ByteEncodable, Hashable {
        public var status: HCIStatus
        /// Max_Advertising_Data_Length (0x001F–0x0672).
        public var maxAdvertisingDataLength: UInt16

        /// Return parameters as a controller returns them (an emulated one, a test).
        public init(status: HCIStatus, maxAdvertisingDataLength: UInt16) {
            self.status = status
            self.maxAdvertisingDataLength = maxAdvertisingDataLength
        }

        public init(returnParameters: borrowing ArraySlice<UInt8>) throws(HCIDecodingError) {
            let p = try HCIWire.returnBlock(
                returnParameters, "LE Read Maximum Advertising Data Length return parameters", length: 3)
            status = HCIStatus(p.byte(at: 0))
            maxAdvertisingDataLength = p.littleEndianUInt16(at: 1)
        }

        public var encodedLength: Int { 3 }

        public func encode(into writer: inout ByteWriter) {
            writer.write(status.rawValue)
            writer.write(maxAdvertisingDataLength)
        }
    }
}
