import SwiftATTCore

/// HCI_Read_BD_ADDR: the controller's public device address.
/// Core 5.4 Vol 4 Part E §7.4.6.
public struct ReadBDADDR: HCIParameterlessCommand, Hashable {
    @inlinable public static var opcode: HCIOpcode { HCIOpcode(ogf: 0x04, ocf: 0x0009) }
    public init() {}

    public struct ReturnParameters: HCIReturnParameters, ByteEncodable, Hashable {
        public var status: HCIStatus
        /// The public address (all zeros on controllers that have none).
        public var address: BluetoothAddress

        /// Return parameters as a controller returns them (an emulated one, a test).
        public init(status: HCIStatus, address: BluetoothAddress) {
            self.status = status
            self.address = address
        }

        public init(returnParameters p: borrowing ArraySlice<UInt8>) throws(HCIDecodingError) {
            try HCIWire.checkReturn(p, "Read BD_ADDR return parameters", length: 7)
            status = HCIStatus(p.byte(at: 0))
            address = p.count >= 7 ? p.address(at: 1, kind: .public)
                : BluetoothAddress(0)
        }

        public var encodedLength: Int { 7 }

        public func encode(into writer: inout ByteWriter) {
            writer.write(status.rawValue)
            address.encode(into: &writer)
        }
    }
}
