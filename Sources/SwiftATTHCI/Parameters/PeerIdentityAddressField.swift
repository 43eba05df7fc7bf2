import SwiftATTCore

/// Peer_Identity_Address_Type and Peer_Identity_Address, the seven octets that name a
/// resolving-list entry (Core 5.4 Vol 4 Part E §7.8.38–§7.8.40, §7.8.42–§7.8.43,
/// §7.8.77). Only the two identity kinds are defined here (0x00 public, 0x01 static
/// random), so the commands keep a `BluetoothAddress` whose kind is the type, and any
/// other type octet is refused rather than read as an address.
enum PeerIdentityAddressField {
    static let length = 7

    static func encode(_ address: BluetoothAddress, into writer: inout ByteWriter) {
        writer.write(address.kind == .public ? UInt8(0x00) : 0x01)
        address.encode(into: &writer)
    }

    /// The field at `offset`; the caller has checked the length.
    static func decode(_ p: borrowing ArraySlice<UInt8>, at offset: Int, _ what: String) throws(HCIDecodingError) -> BluetoothAddress {
        let type = p.byte(at: offset)
        guard type <= 0x01 else { throw .invalidField("\(what) Peer_Identity_Address_Type", value: Int(type)) }
        return p.address(at: offset + 1, kind: type == 0x00 ? .public : .random)
    }
}
