import SwiftATTCore

/// HCI_LE_Read_Buffer_Size [v2]: the LE ACL buffers and the ISO buffers.
/// Core 5.4 Vol 4 Part E §7.8.2.
public struct LEReadBufferSizeV2: HCIParameterlessCommand, Hashable {
    @inlinable public static var opcode: HCIOpcode { HCIOpcode(ogf: 0x08, ocf: 0x0060) }
    public init() {}

    public struct ReturnParameters: HCIReturnParameters, ByteEncodable, Hashable {
        public var status: HCIStatus
        /// LE_ACL_Data_Packet_Length (0: LE shares the Read Buffer Size buffers).
        public var leACLDataPacketLength: UInt16
        /// Total_Num_LE_ACL_Data_Packets: how many LE ACL packets the controller buffers.
        public var totalNumLEACLDataPackets: UInt8
        /// ISO_Data_Packet_Length.
        public var isoDataPacketLength: UInt16
        /// Total_Num_ISO_Data_Packets: how many ISO packets the controller buffers.
        public var totalNumISODataPackets: UInt8

        /// Return parameters as a controller returns them (an emulated one, a test).
        public init(status: HCIStatus, leACLDataPacketLength: UInt16, totalNumLEACLDataPackets: UInt8,
                    isoDataPacketLength: UInt16, totalNumISODataPackets: UInt8) {
            self.status = status
            self.leACLDataPacketLength = leACLDataPacketLength
            self.totalNumLEACLDataPackets = totalNumLEACLDataPackets
            self.isoDataPacketLength = isoDataPacketLength
            self.totalNumISODataPackets = totalNumISODataPackets
        }

        public init(returnParameters: borrowing ArraySlice<UInt8>) throws(HCIDecodingError) {
            let p = try HCIWire.returnBlock(returnParameters, "LE Read Buffer Size [v2] return parameters", length: 7)
            status = HCIStatus(p.byte(at: 0))
            leACLDataPacketLength = p.littleEndianUInt16(at: 1)
            totalNumLEACLDataPackets = p.byte(at: 3)
            isoDataPacketLength = p.littleEndianUInt16(at: 4)
            totalNumISODataPackets = p.byte(at: 6)
        }

        public var encodedLength: Int { 7 }

        public func encode(into writer: inout ByteWriter) {
            writer.write(status.rawValue)
            writer.write(leACLDataPacketLength)
            writer.write(totalNumLEACLDataPackets)
            writer.write(isoDataPacketLength)
            writer.write(totalNumISODataPackets)
        }
    }
}
