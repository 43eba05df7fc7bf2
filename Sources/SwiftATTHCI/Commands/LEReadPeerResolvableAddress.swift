import SwiftATTCore

/// HCI_LE_Read_Peer_Resolvable_Address: the resolvable private address the controller last resolved for a peer in its list (the one the peer uses now). Core 5.4 Vol 4 Part E §7.8.42.
///
/// Bumble's virtual controller (0.0.236) lists it and never answers it (BENCH.md quirk 1).
public struct LEReadPeerResolvableAddress: HCICommand, Hashable {
    @inlinable public static var opcode: HCIOpcode { HCIOpcode(ogf: 0x08, ocf: 0x002B) }
    public typealias ReturnParameters = HCIResolvableAddressReturn
    /// Peer_Identity_Address, its kind the Peer_Identity_Address_Type.
    public var peerIdentityAddress: BluetoothAddress

    /// HCI_LE_Read_Peer_Resolvable_Address with these parameters.
    public init(peerIdentityAddress: BluetoothAddress) { self.peerIdentityAddress = peerIdentityAddress }

    public var parametersLength: Int { PeerIdentityAddressField.length }

    public func encodeParameters(into writer: inout ByteWriter) {
        PeerIdentityAddressField.encode(peerIdentityAddress, into: &writer)
    }

    public init(parameters p: borrowing ArraySlice<UInt8>) throws(HCIDecodingError) {
        let what = "LE Read Peer Resolvable Address"
        try HCIWire.check(p, "\(what) parameters", length: PeerIdentityAddressField.length)
        peerIdentityAddress = try PeerIdentityAddressField.decode(p, at: 0, what)
    }
}
