import SwiftATTCore

/// HCI_LE_Set_Advertising_Set_Random_Address: the random address one extended
/// advertising set uses with own-address type random. Core 5.4 Vol 4 Part E §7.8.52.
public struct LESetAdvertisingSetRandomAddress: HCICommand, Hashable {
    @inlinable public static var opcode: HCIOpcode { HCIOpcode(ogf: 0x08, ocf: 0x0035) }
    /// Advertising_Handle: which advertising set.
    public var advertisingHandle: UInt8
    /// Random_Address: the random address to use.
    public var randomAddress: BluetoothAddress

    /// HCI_LE_Set_Advertising_Set_Random_Address with these parameters.
    public init(advertisingHandle: UInt8, randomAddress: BluetoothAddress) {
        self.advertisingHandle = advertisingHandle
        self.randomAddress = BluetoothAddress(randomAddress.value, kind: .random)
    }

    public var parametersLength: Int { 7 }

    public func encodeParameters(into writer: inout ByteWriter) {
        writer.write(advertisingHandle)
        randomAddress.encode(into: &writer)
    }

    public init(parameters p: borrowing ArraySlice<UInt8>) throws(HCIDecodingError) {
        try HCIWire.check(p, "LE Set Advertising Set Random Address parameters", length: 7)
        advertisingHandle = p.byte(at: 0)
        randomAddress = p.address(at: 1, kind: .random)
    }
}
