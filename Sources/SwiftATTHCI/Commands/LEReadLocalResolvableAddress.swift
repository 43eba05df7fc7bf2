import SwiftATTCore

/// HCI_LE_Read_Local_Resolvable_Address: the resolvable private address the controller generated for this device toward a peer in its list. Core 5.4 Vol 4 Part E §7.8.43.
///
/// Bumble's virtual controller (0.0.236) lists it and never answers it (BENCH.md quirk 1).
public struct LEReadLocalResolvableAddress: HCICommand, Hashable {
    @inlinable public static var opcode: HCIOpcode { HCIOpcode(ogf: 0x08, ocf: 0x002C) }
    public typealias ReturnParameters = HCIResolvableAddressReturn
    /// Peer_Identity_Address, its kind the Peer_Identity_Address_Type.
    public var peerIdentityAddress: BluetoothAddress

    /// HCI_LE_Read_Local_Resolvable_Address with these parameters.
    public init(peerIdentityAddress: BluetoothAddress) { self.peerIdentityAddress = peerIdentityAddress }

    public var parametersLength: Int { PeerIdentityAddressField.length }

    public func encodeParameters(into writer: inout ByteWriter) {
        PeerIdentityAddressField.encode(peerIdentityAddress, into: &writer)
    }

    public init(parameters p: borrowing ArraySlice<UInt8>) throws(HCIDecodingError) {
        let what = "LE Read Local Resolvable Address"
        try HCIWire.check(p, "\(what) parameters", length: PeerIdentityAddressField.length)
        peerIdentityAddress = try PeerIdentityAddressField.decode(p, at: 0, what)
    }
}
