import SwiftATTCore

/// HCI_LE_Set_Random_Address: the random address used when advertising, scanning or
/// initiating with own-address type random. Core 5.4 Vol 4 Part E §7.8.4.
public struct LESetRandomAddress: HCICommand, Hashable {
    @inlinable public static var opcode: HCIOpcode { HCIOpcode(ogf: 0x08, ocf: 0x0005) }
    /// Random_Address: the random address to use.
    public var randomAddress: BluetoothAddress

    /// HCI_LE_Set_Random_Address with these parameters.
    public init(randomAddress: BluetoothAddress) { self.randomAddress = randomAddress }

    public var parametersLength: Int { 6 }

    public func encodeParameters(into writer: inout ByteWriter) {
        randomAddress.encode(into: &writer)
    }

    public init(parameters p: borrowing ArraySlice<UInt8>) throws(HCIDecodingError) {
        try HCIWire.check(p, "LE Set Random Address parameters", length: 6)
        randomAddress = p.address(at: 0, kind: .random)
    }
}
