import SwiftATTCore

/// HCI_LE_Set_Address_Resolution_Enable: whether the controller resolves addresses with
/// its resolving list. Core 5.4 Vol 4 Part E §7.8.44.
///
/// Refused (Command Disallowed) while advertising, scanning or initiating; off after
/// HCI_Reset.
public struct LESetAddressResolutionEnable: HCICommand, Hashable {
    @inlinable public static var opcode: HCIOpcode { HCIOpcode(ogf: 0x08, ocf: 0x002D) }
    /// Address_Resolution_Enable: resolve private addresses with the resolving list.
    public var addressResolutionEnable: Bool

    /// HCI_LE_Set_Address_Resolution_Enable with these parameters.
    public init(addressResolutionEnable: Bool) { self.addressResolutionEnable = addressResolutionEnable }

    public var parametersLength: Int { 1 }

    public func encodeParameters(into writer: inout ByteWriter) {
        writer.write(addressResolutionEnable ? UInt8(1) : 0)
    }

    public init(parameters p: borrowing ArraySlice<UInt8>) throws(HCIDecodingError) {
        try HCIWire.check(p, "LE Set Address Resolution Enable parameters", length: 1)
        addressResolutionEnable = try HCIField.decodeBool(p.byte(at: 0), "LE Set Address Resolution Enable Address_Resolution_Enable")
    }
}
