import SwiftATTCore
import SwiftATTGATT
import SwiftATTJSON
import SwiftATTSecurity

/// The JSON form of a bond file, version 1:
///
///     {
///       "version": 1,
///       "identities": {
///         "<adapter>": {
///           "address": "C3:5A:10:22:8E:41",     the static random identity address
///           "addressType": "random",
///           "irk": "<32 hex digits>",           distributed with the address
///           "bonds": [
///             {
///               "peer": "D0:…",                 identity address, or the address it paired from
///               "peerType": "public" | "random",
///               "centralKey": {"key": "<32 hex>", "ediv": 0…65535, "rand": "<16 hex>"},
///               "peripheralKey": { same },
///               "irk": "<32 hex>",               the peer's
///               "peerCSRK": "<32 hex>",
///               "localCSRK": "<32 hex>",
///               "authenticated": false,
///               "secureConnections": true,
///               "keySize": 16,                    7…16
///               "peerSignCounter": 41,            the last SignCounter accepted from the peer
///               "localSignCounter": 7,            the next one this device signs with
///               "gatt": {                         what the GATT server keeps for the peer
///                 "databaseHash": "<32 hex>",     of the database the handles are in
///                 "changeAware": true,
///                 "clientSupportedFeatures": "01",  the octets the client wrote, in order
///                 "serviceChangedOwed": {"startingHandle": 1, "endingHandle": 65535},
///                 "subscriptions": [
///                   {"valueHandle": 16, "uuid": "2A37", "notification": true, "indication": false}
///                 ]
///               }
///             }
///           ]
///         }
///       }
///     }
///
/// `<adapter>` is an `AdapterIdentifier`: the controller's public address, or the
/// transport string of a controller without one. Keys (LTKs, IRKs, CSRKs) are 32 hex
/// digits, most significant octet first, as Core 5.4 Vol 3 Part H Appendix D prints its
/// sample data (and as a `UInt128` prints): the reverse of their order on the air, which
/// is the order Bumble's key store writes. `rand` is a string too, 16 hex
/// digits in the same order, because JSON readers differ on integers above 2^53 and
/// this one stops at 2^63. Absent keys (`centralKey` … `localCSRK`) are left out rather
/// than written as null, and so are the sign counters before they move (no
/// `peerSignCounter` before the peer's first signed write, `localSignCounter` while 0)
/// and `gatt` for a peer the server kept nothing for: a file from before they existed
/// reads as it did, and is written back byte for byte. Within `gatt`,
/// `serviceChangedOwed` is left out when nothing is owed; `databaseHash` is written as
/// the keys are (the Database Hash as a 128-bit number, most significant octet first:
/// the reverse of its characteristic's value on the air); handles are numbers; UUIDs
/// are written as `swift-att decode` prints them; subscriptions are in value-handle
/// order, one per handle, each with at least one of its two bits. Every other key is
/// required, and a key not listed here is an error, so that a misspelling is not read
/// as a bond without that key.
extension BondDocument {
    /// The file's text: indented by two spaces, ending with a newline.
    public func serialized() -> String {
        json.serialized(indent: 2) + "\n"
    }

    /// The document as JSON, in the order `serialized()` writes it.
    public var json: JSONValue {
        .object([
            JSONMember("version", .integer(Self.currentVersion)),
            JSONMember("identities", .object(adapters.map { JSONMember($0.name.name, $0.json) })),
        ])
    }
}

extension BondDocument.Adapter {
    var json: JSONValue {
        .object([
            JSONMember("address", .string(identity.address.description)),
            JSONMember("addressType", .string(BondDocument.typeName(identity.address.kind))),
            JSONMember("irk", .string(BondDocument.hex(identity.identityResolvingKey))),
            JSONMember("bonds", .array(bonds.map { BondDocument.json($0, gatt: gattClients[$0.peer]) })),
        ])
    }
}

extension BondDocument {
    static func json(_ bond: Bond, gatt: GATTBondedClient?) -> JSONValue {
        var members = [
            JSONMember("peer", .string(bond.peer.description)),
            JSONMember("peerType", .string(typeName(bond.peer.kind))),
        ]
        if let key = bond.centralKey { members.append(JSONMember("centralKey", json(key))) }
        if let key = bond.peripheralKey { members.append(JSONMember("peripheralKey", json(key))) }
        if let irk = bond.peerIdentityResolvingKey { members.append(JSONMember("irk", .string(hex(irk)))) }
        if let csrk = bond.peerSignatureKey { members.append(JSONMember("peerCSRK", .string(hex(csrk)))) }
        if let csrk = bond.localSignatureKey { members.append(JSONMember("localCSRK", .string(hex(csrk)))) }
        members += [
            JSONMember("authenticated", .bool(bond.authenticated)),
            JSONMember("secureConnections", .bool(bond.secureConnections)),
            JSONMember("keySize", .integer(bond.keySize)),
        ]
        if let counter = bond.peerSignCounter { members.append(JSONMember("peerSignCounter", .integer(Int(counter)))) }
        if bond.localSignCounter != 0 { members.append(JSONMember("localSignCounter", .integer(Int(bond.localSignCounter)))) }
        if let gatt { members.append(JSONMember("gatt", json(gatt))) }
        return .object(members)
    }

    static func json(_ key: LongTermKey) -> JSONValue {
        .object([
            JSONMember("key", .string(hex(key.key))),
            JSONMember("ediv", .integer(Int(key.ediv))),
            JSONMember("rand", .string(hex(key.rand))),
        ])
    }

    static func typeName(_ kind: BluetoothAddress.Kind) -> String {
        kind == .public ? "public" : "random"
    }

    /// 32 lowercase hex digits, most significant first.
    public static func hex(_ value: UInt128) -> String {
        Hex.encode(value.bigEndianBytes)
    }

    /// 16 lowercase hex digits, most significant first.
    public static func hex(_ value: UInt64) -> String {
        Hex.encode((0..<8).map { UInt8(truncatingIfNeeded: value >> (56 - 8 * $0)) })
    }
}
