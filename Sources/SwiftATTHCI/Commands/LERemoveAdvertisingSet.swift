import SwiftATTCore

/// HCI_LE_Remove_Advertising_Set: delete one extended advertising set.
/// Core 5.4 Vol 4 Part E §7.8.59.
public struct LERemoveAdvertisingSet: HCICommand, Hashable {
    @inlinable public static var opcode: HCIOpcode { HCIOpcode(ogf: 0x08, ocf: 0x003C) }
    /// Advertising_Handle: which advertising set.
    public var advertisingHandle: UInt8

    /// HCI_LE_Remove_Advertising_Set with these parameters.
    public init(advertisingHandle: UInt8) { self.advertisingHandle = advertisingHandle }

    public var parametersLength: Int { 1 }

    public func encodeParameters(into writer: inout ByteWriter) {
        writer.write(advertisingHandle)
    }

    public init(parameters p: borrowing ArraySlice<UInt8>) throws(HCIDecodingError) {
        try HCIWire.check(p, "LE Remove Advertising Set parameters", length: 1)
        advertisingHandle = p.byte(at: 0)
    }
}
