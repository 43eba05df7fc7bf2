import SwiftATTCore

/// HCI_LE_Read_Resolving_List_Size: how many identities the controller can resolve at
/// once (it may hold fewer, sharing memory with other lists). Core 5.4 Vol 4 Part E §7.8.41.
public struct LEReadResolvingListSize: HCIParameterlessCommand, Hashable {
    @inlinable public static var opcode: HCIOpcode { HCIOpcode(ogf: 0x08, ocf: 0x002A) }
    public init() {}

    public struct ReturnParameters: HCIReturnParameters, ByteEncodable, Hashable {
        public var status: HCIStatus
        /// Resolving_List_Size: how many entries the list holds.
        public var resolvingListSize: UInt8

        /// Return parameters as a controller returns them (an emulated one, a test).
        public init(status: HCIStatus, resolvingListSize: UInt8) {
            self.status = status
            self.resolvingListSize = resolvingListSize
        }

        public init(returnParameters: borrowing ArraySlice<UInt8>) throws(HCIDecodingError) {
            let p = try HCIWire.returnBlock(returnParameters, "LE Read Resolving List Size return parameters", length: 2)
            status = HCIStatus(p.byte(at: 0))
            resolvingListSize = p.byte(at: 1)
        }

        public var encodedLength: Int { 2 }

        public func encode(into writer: inout ByteWriter) {
            writer.write(status.rawValue)
            writer.write(resolvingListSize)
        }
    }
}
