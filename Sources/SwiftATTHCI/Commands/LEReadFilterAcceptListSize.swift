import SwiftATTCore

/// HCI_LE_Read_Filter_Accept_List_Size: how many entries the list holds at most.
/// Core 5.4 Vol 4 Part E §7.8.14.
public struct LEReadFilterAcceptListSize: HCIParameterlessCommand, Hashable {
    @inlinable public static var opcode: HCIOpcode { HCIOpcode(ogf: 0x08, ocf: 0x000F) }
    public init() {}

    public struct ReturnParameters: HCIReturnParameters, ByteEncodable, Hashable {
        public var status: HCIStatus
        /// Filter_Accept_List_Size: how many entries the list holds.
        public var filterAcceptListSize: UInt8

        /// Return parameters as a controller returns them (an emulated one, a test).
        public init(status: HCIStatus, filterAcceptListSize: UInt8) {
            self.status = status
            self.filterAcceptListSize = filterAcceptListSize
        }

        public init(returnParameters: borrowing ArraySlice<UInt8>) throws(HCIDecodingError) {
            let p = try HCIWire.returnBlock(returnParameters, "LE Read Filter Accept List Size return parameters", length: 2)
            status = HCIStatus(p.byte(at: 0))
            filterAcceptListSize = p.byte(at: 1)
        }

        public var encodedLength: Int { 2 }

        public func encode(into writer: inout ByteWriter) {
            writer.write(status.rawValue)
            writer.write(filterAcceptListSize)
        }
    }
}
