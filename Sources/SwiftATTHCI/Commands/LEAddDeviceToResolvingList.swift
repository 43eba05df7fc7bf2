import SwiftATTCore

/// HCI_LE_Add_Device_To_Resolving_List: a peer's identity with its IRK, and the IRK this
/// device uses toward it, so that the controller resolves (and may generate) resolvable
/// private addresses itself. Core 5.4 Vol 4 Part E §7.8.38.
///
/// The list may change only while address resolution is off or nothing advertises,
/// scans or initiates (§7.8.38): otherwise Command Disallowed.
public struct LEAddDeviceToResolvingList: HCICommand, Hashable {
    @inlinable public static var opcode: HCIOpcode { HCIOpcode(ogf: 0x08, ocf: 0x0027) }
    /// Peer_Identity_Address, its kind the Peer_Identity_Address_Type (public or static random).
    public var peerIdentityAddress: BluetoothAddress
    /// Peer_IRK, least significant octet first on the wire; zero for a peer without one.
    public var peerIdentityResolvingKey: UInt128
    /// Local_IRK; zero when this device uses its identity address toward the peer.
    public var localIdentityResolvingKey: UInt128

    /// HCI_LE_Add_Device_To_Resolving_List with these parameters.
    public init(peerIdentityAddress: BluetoothAddress, peerIdentityResolvingKey: UInt128, localIdentityResolvingKey: UInt128) {
        self.peerIdentityAddress = peerIdentityAddress
        self.peerIdentityResolvingKey = peerIdentityResolvingKey
        self.localIdentityResolvingKey = localIdentityResolvingKey
    }

    private enum Field {
        static let identity = 0
        static let peerIRK = identity + PeerIdentityAddressField.length
        static let localIRK = peerIRK + 16
        static let end = localIRK + 16
    }

    public var parametersLength: Int { Field.end }

    public func encodeParameters(into writer: inout ByteWriter) {
        PeerIdentityAddressField.encode(peerIdentityAddress, into: &writer)
        writer.write(peerIdentityResolvingKey)
        writer.write(localIdentityResolvingKey)
    }

    public init(parameters p: borrowing ArraySlice<UInt8>) throws(HCIDecodingError) {
        let what = "LE Add Device To Resolving List"
        try HCIWire.check(p, "\(what) parameters", length: Field.end)
        peerIdentityAddress = try PeerIdentityAddressField.decode(p, at: Field.identity, what)
        peerIdentityResolvingKey = p.littleEndianUInt128(at: Field.peerIRK)
        localIdentityResolvingKey = p.littleEndianUInt128(at: Field.localIRK)
    }
}
