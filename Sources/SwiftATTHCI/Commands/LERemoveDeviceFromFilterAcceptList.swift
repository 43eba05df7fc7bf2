import SwiftATTCore

/// HCI_LE_Remove_Device_From_Filter_Accept_List. Core 5.4 Vol 4 Part E §7.8.17.
public struct LERemoveDeviceFromFilterAcceptList: HCICommand, Hashable {
    @inlinable public static var opcode: HCIOpcode { HCIOpcode(ogf: 0x08, ocf: 0x0012) }
    /// Address_Type: public, random, or anonymous (0xFF).
    public var addressType: LEAddressType
    /// The device to remove from the list.
    public var address: BluetoothAddress

    /// HCI_LE_Remove_Device_From_Filter_Accept_List with these parameters.
    public init(address: BluetoothAddress, addressType: LEAddressType? = nil) {
        let type = addressType ?? LEAddressType(address.kind)
        self.addressType = type
        self.address = BluetoothAddress(address.value, kind: type.kind)
    }

    public var parametersLength: Int { 7 }

    public func encodeParameters(into writer: inout ByteWriter) {
        writer.write(addressType.rawValue)
        address.encode(into: &writer)
    }

    public init(parameters p: borrowing ArraySlice<UInt8>) throws(HCIDecodingError) {
        try HCIWire.check(p, "LE Remove Device From Filter Accept List parameters", length: 7)
        addressType = try HCIField.decode(LEAddressType.self, p.byte(at: 0), "LE Remove Device From Filter Accept List Address_Type")
        address = p.address(at: 1, kind: addressType.kind)
    }
}
