import SwiftATTCore

/// HCI_LE_Remove_Device_From_Resolving_List: forget one peer's entry.
/// Core 5.4 Vol 4 Part E §7.8.39.
///
/// Bumble's virtual controller (0.0.236) lists it as supported and never answers it
/// (BENCH.md quirk 1), so swift-att re-programs the list with Clear and Add instead.
public struct LERemoveDeviceFromResolvingList: HCICommand, Hashable {
    @inlinable public static var opcode: HCIOpcode { HCIOpcode(ogf: 0x08, ocf: 0x0028) }
    /// Peer_Identity_Address, its kind the Peer_Identity_Address_Type.
    public var peerIdentityAddress: BluetoothAddress

    /// HCI_LE_Remove_Device_From_Resolving_List with these parameters.
    public init(peerIdentityAddress: BluetoothAddress) { self.peerIdentityAddress = peerIdentityAddress }

    public var parametersLength: Int { PeerIdentityAddressField.length }

    public func encodeParameters(into writer: inout ByteWriter) {
        PeerIdentityAddressField.encode(peerIdentityAddress, into: &writer)
    }

    public init(parameters p: borrowing ArraySlice<UInt8>) throws(HCIDecodingError) {
        let what = "LE Remove Device From Resolving List"
        try HCIWire.check(p, "\(what) parameters", length: PeerIdentityAddressField.length)
        peerIdentityAddress = try PeerIdentityAddressField.decode(p, at: 0, what)
    }
}
