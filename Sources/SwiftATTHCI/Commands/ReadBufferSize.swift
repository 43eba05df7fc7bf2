import SwiftATTCore

/// HCI_Read_Buffer_Size: the controller's shared (BR/EDR, and LE when LE Read Buffer Size
/// reports 0) ACL buffers. Core 5.4 Vol 4 Part E §7.4.5.
public struct ReadBufferSize: HCIParameterlessCommand, Hashable {
    @inlinable public static var opcode: HCIOpcode { HCIOpcode(ogf: 0x04, ocf: 0x0005) }
    public init() {}

    public struct ReturnParameters: HCIReturnParameters, ByteEncodable, Hashable {
        public var status: HCIStatus
        /// ACL_Data_Packet_Length: the most data octets in one ACL packet.
        public var aclDataPacketLength: UInt16
        /// Synchronous_Data_Packet_Length: the most data octets in one SCO packet.
        public var synchronousDataPacketLength: UInt8
        /// Total_Num_ACL_Data_Packets: how many ACL packets the controller buffers.
        public var totalNumACLDataPackets: UInt16
        /// Total_Num_Synchronous_Data_Packets: how many SCO packets the controller buffers.
        public var totalNumSynchronousDataPackets: UInt16

        /// Return parameters as a controller returns them (an emulated one, a test).
        public init(status: HCIStatus, aclDataPacketLength: UInt16, synchronousDataPacketLength: UInt8,
                    totalNumACLDataPackets: UInt16, totalNumSynchronousDataPackets: UInt16) {
            self.status = status
            self.aclDataPacketLength = aclDataPacketLength
            self.synchronousDataPacketLength = synchronousDataPacketLength
            self.totalNumACLDataPackets = totalNumACLDataPackets
            self.totalNumSynchronousDataPackets = totalNumSynchronousDataPackets
        }

        public init(returnParameters: borrowing ArraySlice<UInt8>) throws(HCIDecodingError) {
            let p = try HCIWire.returnBlock(returnParameters, "Read Buffer Size return parameters", length: 8)
            status = HCIStatus(p.byte(at: 0))
            aclDataPacketLength = p.littleEndianUInt16(at: 1)
            synchronousDataPacketLength = p.byte(at: 3)
            totalNumACLDataPackets = p.littleEndianUInt16(at: 4)
            totalNumSynchronousDataPackets = p.littleEndianUInt16(at: 6)
        }

        public var encodedLength: Int { 8 }

        public func encode(into writer: inout ByteWriter) {
            writer.write(status.rawValue)
            writer.write(aclDataPacketLength)
            writer.write(synchronousDataPacketLength)
            writer.write(totalNumACLDataPackets)
            writer.write(totalNumSynchronousDataPackets)
        }
    }
}
