import SwiftATTCore

/// HCI_LE_Read_Local_Supported_Features: the controller's LE features (page 0).
/// Core 5.4 Vol 4 Part E §7.8.3.
public struct LEReadLocalSupportedFeatures: HCIParameterlessCommand, Hashable {
    @inlinable public static var opcode: HCIOpcode { HCIOpcode(ogf: 0x08, ocf: 0x0003) }
    public init() {}

    public struct ReturnParameters: HCIReturnParameters, ByteEncodable, Hashable {
        public var status: HCIStatus
        /// LE_Features: the LE features supported.
        public var leFeatures: LEFeatures

        /// Return parameters as a controller returns them (an emulated one, a test).
        public init(status: HCIStatus, leFeatures: LEFeatures) {
            self.status = status
            self.leFeatures = leFeatures
        }

        public init(returnParameters: borrowing ArraySlice<UInt8>) throws(HCIDecodingError) {
            let p = try HCIWire.returnBlock(returnParameters, "LE Read Local Supported Features return parameters", length: 9)
            status = HCIStatus(p.byte(at: 0))
            leFeatures = LEFeatures(rawValue: p.littleEndianUInt64(at: 1))
        }

        public var encodedLength: Int { 9 }

        public func encode(into writer: inout ByteWriter) {
            writer.write(status.rawValue)
            writer.write(leFeatures.rawValue)
        }
    }
}
