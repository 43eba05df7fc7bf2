import SwiftATTCore

/// HCI_LE_Set_Advertising_Enable: start or stop legacy advertising.
/// Core 5.4 Vol 4 Part E §7.8.9.
public struct LESetAdvertisingEnable: HCICommand, Hashable {
    @inlinable public static var opcode: HCIOpcode { HCIOpcode(ogf: 0x08, ocf: 0x000A) }
    /// Advertising_Enable: start (true) or stop.
    public var advertisingEnable: Bool

    /// HCI_LE_Set_Advertising_Enable with these parameters.
    public init(advertisingEnable: Bool) { self.advertisingEnable = advertisingEnable }

    public var parametersLength: Int { 1 }

    public func encodeParameters(into writer: inout ByteWriter) {
        writer.write(advertisingEnable ? UInt8(1) : 0)
    }

    public init(parameters p: borrowing ArraySlice<UInt8>) throws(HCIDecodingError) {
        try HCIWire.check(p, "LE Set Advertising Enable parameters", length: 1)
        advertisingEnable = try HCIField.decodeBool(p.byte(at: 0), "LE Set Advertising Enable Advertising_Enable")
    }
}
