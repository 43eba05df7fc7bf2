import SwiftATTCore

/// HCI_LE_Read_Buffer_Size [v1]: the controller's LE ACL buffers; a length of 0 means
/// LE shares the buffers Read Buffer Size reports. Core 5.4 Vol 4 Part E §7.8.2.
public struct LEReadBufferSize: HCIParameterlessCommand, Hashable {
    @inlinable public static var opcode: HCIOpcode { HCIOpcode(ogf: 0x08, ocf: 0x0002) }
    public init() {}

    public struct ReturnParameters: HCIReturnParameters, ByteEncodable, Hashable {
        public var status: HCIStatus
        /// LE_ACL_Data_Packet_Length: the most data octets in one LE ACL packet (0: shared).
        public var leACLDataPacketLength: UInt16
        /// Total_Num_LE_ACL_Data_Packets: how many LE ACL packets the controller buffers.
        public var totalNumLEACLDataPackets: UInt8

        /// Return parameters as a controller returns them (an emulated one, a test).
        public init(status: HCIStatus, leACLDataPacketLength: UInt16, totalNumLEACLDataPackets: UInt8) {
            self.status = status
            self.leACLDataPacketLength = leACLDataPacketLength
            self.totalNumLEACLDataPackets = totalNumLEACLDataPackets
        }

        public init(returnParameters: borrowing ArraySlice<UInt8>) throws(HCIDecodingError) {
            let p = try HCIWire.returnBlock(returnParameters, "LE Read Buffer Size return parameters", length: 4)
            status = HCIStatus(p.byte(at: 0))
            leACLDataPacketLength = p.littleEndianUInt16(at: 1)
            totalNumLEACLDataPackets = p.byte(at: 3)
        }

        public var encodedLength: Int { 4 }

        public func encode(into writer: inout ByteWriter) {
            writer.write(status.rawValue)
            writer.write(leACLDataPacketLength)
            writer.write(totalNumLEACLDataPackets)
        }
    }
}
