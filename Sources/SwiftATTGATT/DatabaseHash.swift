import SwiftATTCore
import SwiftATTCrypto

/// The GATT Database Hash: AES-CMAC, key zero, over the database's structure.
///
/// Core 5.4 Vol 3 Part G §7.3.1: for each attribute in handle order, the handle and type
/// followed by the value for Primary Service, Secondary Service, Include and
/// Characteristic declarations and the Characteristic Extended Properties descriptor;
/// the handle and type alone for the User Description, Client and Server Characteristic
/// Configuration, Presentation Format and Aggregate Format descriptors; nothing for any
/// other attribute. Handles and types are little-endian, as on the wire. A client that
/// has cached the database reads the 16-octet hash to learn whether it is still valid.
public enum DatabaseHash {
    /// The concatenation the hash is computed over.
    public static func input(_ attributes: some Sequence<Attribute>) -> [UInt8] {
        var m: [UInt8] = []
        for a in attributes {
            guard let short = a.type.uuid16, a.type.width == .bits16 else { continue }
            switch short {
            case 0x2800, 0x2801, 0x2802, 0x2803, 0x2900:
                m.append(littleEndian: a.handle)
                m.append(contentsOf: a.type.encoded())
                m.append(contentsOf: a.constantValue ?? [])
            case 0x2901, 0x2902, 0x2903, 0x2904, 0x2905:
                m.append(littleEndian: a.handle)
                m.append(contentsOf: a.type.encoded())
            default:
                continue
            }
        }
        return m
    }

    /// The hash as a 128-bit number (the CMAC tag; `GATTDatabase.databaseHashValue`
    /// holds it least significant octet first, as the characteristic carries it).
    public static func compute(_ attributes: some Sequence<Attribute>) -> UInt128 {
        CMAC.tag(key: 0, message: input(attributes))
    }
}
