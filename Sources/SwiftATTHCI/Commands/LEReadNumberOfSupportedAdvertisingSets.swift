import SwiftATTCore

/// HCI_LE_Read_Number_of_Supported_Advertising_Sets: how many extended advertising sets
/// the controller can hold at once. Core 5.4 Vol 4 Part E §7.8.58.
public struct LEReadNumberOfSupportedAdvertisingSets: HCIParameterlessCommand, Hashable {
    @inlinable public static var opcode: HCIOpcode { HCIOpcode(ogf: 0x08, ocf: 0x003B) }
    public init() {}

    public struct ReturnParameters: HCIReturnParameters, ByteEncodable, Hashable {
        public var status: HCIStatus
        /// Num_Supported_Advertising_Sets: how many sets the controller can advertise at once.
        public var numSupportedAdvertisingSets: UInt8

        /// Return parameters as a controller returns them (an emulated one, a test).
        public init(status: HCIStatus, numSupportedAdvertisingSets: UInt8) {
            self.status = status
            self.numSupportedAdvertisingSets = numSupportedAdvertisingSets
        }

        public init(returnParameters: borrowing ArraySlice<UInt8>) throws(HCIDecodingError) {
            let p = try HCIWire.returnBlock(
                returnParameters, "LE Read Number of Supported Advertising Sets return parameters", length: 2)
            status = HCIStatus(p.byte(at: 0))
            numSupportedAdvertisingSets = p.byte(at: 1)
        }

        public var encodedLength: Int { 2 }

        public func encode(into writer: inout ByteWriter) {
            writer.write(status.rawValue)
            writer.write(numSupportedAdvertisingSets)
        }
    }
}
