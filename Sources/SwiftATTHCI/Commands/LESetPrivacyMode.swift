import SwiftATTCore

/// HCI_LE_Set_Privacy_Mode: network or device privacy for one resolving-list entry.
/// Core 5.4 Vol 4 Part E §7.8.77.
///
/// The entry must be in the list already; like the list itself it may change only while
/// address resolution is off or nothing advertises, scans or initiates.
public struct LESetPrivacyMode: HCICommand, Hashable {
    @inlinable public static var opcode: HCIOpcode { HCIOpcode(ogf: 0x08, ocf: 0x004E) }
    /// Peer_Identity_Address, its kind the Peer_Identity_Address_Type.
    public var peerIdentityAddress: BluetoothAddress
    /// Privacy_Mode: network or device privacy for the peer.
    public var privacyMode: LEPrivacyMode

    /// HCI_LE_Set_Privacy_Mode with these parameters.
    public init(peerIdentityAddress: BluetoothAddress, privacyMode: LEPrivacyMode) {
        self.peerIdentityAddress = peerIdentityAddress
        self.privacyMode = privacyMode
    }

    private enum Field {
        static let identity = 0
        static let mode = identity + PeerIdentityAddressField.length
        static let end = mode + 1
    }

    public var parametersLength: Int { Field.end }

    public func encodeParameters(into writer: inout ByteWriter) {
        PeerIdentityAddressField.encode(peerIdentityAddress, into: &writer)
        writer.write(privacyMode.rawValue)
    }

    public init(parameters p: borrowing ArraySlice<UInt8>) throws(HCIDecodingError) {
        let what = "LE Set Privacy Mode"
        try HCIWire.check(p, "\(what) parameters", length: Field.end)
        peerIdentityAddress = try PeerIdentityAddressField.decode(p, at: Field.identity, what)
        privacyMode = try HCIField.decode(LEPrivacyMode.self, p.byte(at: Field.mode), "\(what) Privacy_Mode")
    }
}
