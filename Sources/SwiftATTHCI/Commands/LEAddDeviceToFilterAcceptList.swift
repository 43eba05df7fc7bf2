import SwiftATTCore

/// HCI_LE_Add_Device_To_Filter_Accept_List: add a device that filter policies then
/// accept. Core 5.4 Vol 4 Part E §7.8.16.
public struct LEAddDeviceToFilterAcceptList: HCICommand, Hashable {
    @inlinable public static var opcode: HCIOpcode { HCIOpcode(ogf: 0x08, ocf: 0x0011) }
    /// Address_Type: public, random, or anonymous (0xFF: all anonymous advertisements).
    public var addressType: LEAddressType
    /// The device to add to the list.
    public var address: BluetoothAddress

    /// HCI_LE_Add_Device_To_Filter_Accept_List with these parameters.
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
        try HCIWire.check(p, "LE Add Device To Filter Accept List parameters", length: 7)
        addressType = try HCIField.decode(LEAddressType.self, p.byte(at: 0), "LE Add Device To Filter Accept List Address_Type")
        address = p.address(at: 1, kind: addressType.kind)
    }
}
