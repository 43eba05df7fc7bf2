import SwiftATTCore
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
///               "keySize": 16                     7…16
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
/// than written as null. Every other key is required, and a key not listed here is an
/// error, so that a misspelling is not read as a bond without that key.
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
            JSONMember("bonds", .array(bonds.map(BondDocument.json))),
        ])
    }
}

extension BondDocument {
    static func json(_ bond: Bond) -> JSONValue {
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
