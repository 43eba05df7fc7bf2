import SwiftATTCore

/// HCI_Read_Local_Version_Information: the controller's HCI and LMP/LL versions and
/// maker. Core 5.4 Vol 4 Part E §7.4.1.
public struct ReadLocalVersionInformation: HCIParameterlessCommand, Hashable {
    @inlinable public static var opcode: HCIOpcode { HCIOpcode(ogf: 0x04, ocf: 0x0001) }
    public init() {}

    public struct ReturnParameters: HCIReturnParameters, ByteEncodable, Hashable {
        public var status: HCIStatus
        /// HCI_Version: the Core version number (Assigned Numbers; 0x0D is 5.4).
        public var hciVersion: UInt8
        /// HCI_Subversion: the manufacturer's revision of the HCI implementation.
        public var hciSubversion: UInt16
        /// LMP_Version (the Link Layer version on LE-only controllers).
        public var lmpVersion: UInt8
        /// Company_Identifier (Assigned Numbers; 0xFFFF is for tests).
        public var companyIdentifier: UInt16
        /// LMP_PAL_Subversion: the manufacturer's revision of the link layer.
        public var lmpSubversion: UInt16

        /// Return parameters as a controller returns them (an emulated one, a test).
        public init(status: HCIStatus, hciVersion: UInt8, hciSubversion: UInt16, lmpVersion: UInt8,
                    companyIdentifier: UInt16, lmpSubversion: UInt16) {
            self.status = status
            self.hciVersion = hciVersion
            self.hciSubversion = hciSubversion
            self.lmpVersion = lmpVersion
            self.companyIdentifier = companyIdentifier
            self.lmpSubversion = lmpSubversion
        }

        public init(returnParameters: borrowing ArraySlice<UInt8>) throws(HCIDecodingError) {
            let p = try HCIWire.returnBlock(returnParameters, "Read Local Version Information return parameters", length: 9)
            status = HCIStatus(p.byte(at: 0))
            hciVersion = p.byte(at: 1)
            hciSubversion = p.littleEndianUInt16(at: 2)
            lmpVersion = p.byte(at: 4)
            companyIdentifier = p.littleEndianUInt16(at: 5)
            lmpSubversion = p.littleEndianUInt16(at: 7)
        }

        public var encodedLength: Int { 9 }

        public func encode(into writer: inout ByteWriter) {
            writer.write(status.rawValue)
            writer.write(hciVersion)
            writer.write(hciSubversion)
            writer.write(lmpVersion)
            writer.write(companyIdentifier)
            writer.write(lmpSubversion)
        }
    }
}
