import SwiftATTCore
import SwiftATTGATT
import SwiftATTHost
import SwiftATTJSON
import SwiftATTSecurity

extension BondDocument {
    static let documentKeys = ["version", "identities"]
    static let adapterKeys = ["address", "addressType", "irk", "bonds"]
    static let bondKeys = ["peer", "peerType", "centralKey", "peripheralKey", "irk", "peerCSRK", "localCSRK",
                           "authenticated", "secureConnections", "keySize", "peerSignCounter", "localSignCounter", "gatt"]
    static let signCounters = 0...Int(UInt32.max)
    static let longTermKeyKeys = ["key", "ediv", "rand"]

    /// Reads a bond file's text (the form `serialized()` writes). Throws at the first value
    /// that is wrong, naming its path; a version other than `currentVersion` is refused
    /// before anything else is read, since its keys may mean something else.
    public init(parsing text: String) throws(BondDocumentError) {
        let json: JSONValue
        do {
            json = try JSONValue.parse(text)
        } catch {
            throw BondDocumentError(error, in: text)
        }
        let root = try BondFileObject(json, at: "", keys: Self.documentKeys)
        let version = try root.required("version")
        guard case let .integer(number) = version else {
            throw BondDocumentError("expected an integer, found \(version.kindDescription)", at: "version")
        }
        guard number == Self.currentVersion else {
            throw BondDocumentError("unsupported version \(number) (this swift-att reads version \(Self.currentVersion))",
                                    at: "version")
        }
        let identities = try root.required("identities")
        guard case let .object(members) = identities else {
            throw BondDocumentError("expected an object, found \(identities.kindDescription)", at: "identities")
        }
        var adapters: [Adapter] = []
        for member in members {
            let path = "identities[\(JSONValue.string(member.key).serialized())]"
            guard !member.key.isEmpty else { throw BondDocumentError("an adapter's name is empty", at: path) }
            adapters.append(try Self.adapter(member.value, name: AdapterIdentifier(member.key), at: path))
        }
        self.init(adapters: adapters)
    }

    static func adapter(_ value: JSONValue, name: AdapterIdentifier, at path: String) throws(BondDocumentError) -> Adapter {
        let object = try BondFileObject(value, at: path, keys: adapterKeys)
        let address = try object.address("address", typeKey: "addressType")
        guard address.randomSubtype == .static else {
            throw BondDocumentError("\(address) is not a static random address (random, the two top bits set)",
                                    at: object.pathOf(address.kind == .public ? "addressType" : "address"))
        }
        let irk = try object.key128("irk")
        // Anyone could make addresses that resolve with an all-zero key (Part H §2.4.2.1):
        // a file that holds one was not written by swift-att, and is refused, not used.
        guard irk != 0 else {
            throw BondDocumentError("an all-zero IRK would let anyone make addresses that resolve to this adapter", at: object.pathOf("irk"))
        }
        var bonds: [Bond] = []
        var gattClients: [BluetoothAddress: GATTBondedClient] = [:]
        for (element, elementPath) in try object.array("bonds") {
            let (bond, gatt) = try Self.bond(element, at: elementPath)
            if let earlier = bonds.firstIndex(where: { $0.peer == bond.peer }) {
                throw BondDocumentError("a second bond with \(bond.peer) (the first is \(object.pathOf("bonds"))[\(earlier)])",
                                        at: "\(elementPath).peer")
            }
            bonds.append(bond)
            gattClients[bond.peer] = gatt
        }
        return Adapter(name: name, identity: LocalIdentity(identityResolvingKey: irk, address: address), bonds: bonds,
                       gattClients: gattClients)
    }

    static func bond(_ value: JSONValue, at path: String) throws(BondDocumentError) -> (Bond, GATTBondedClient?) {
        let object = try BondFileObject(value, at: path, keys: bondKeys)
        var bond = Bond(
            peer: try object.address("peer", typeKey: "peerType"),
            centralKey: try longTermKey(object.object("centralKey", keys: longTermKeyKeys)),
            peripheralKey: try longTermKey(object.object("peripheralKey", keys: longTermKeyKeys)),
            peerIdentityResolvingKey: try object.optionalKey128("irk"),
            peerSignatureKey: try object.optionalKey128("peerCSRK"),
            localSignatureKey: try object.optionalKey128("localCSRK"),
            authenticated: try object.bool("authenticated"),
            secureConnections: try object.bool("secureConnections"),
            keySize: try object.integer("keySize", in: 7...16))
        bond.peerSignCounter = try object.optionalInteger("peerSignCounter", in: signCounters).map(UInt32.init)
        bond.localSignCounter = UInt32(try object.optionalInteger("localSignCounter", in: signCounters) ?? 0)
        let gatt = try gattClient(object.object("gatt", keys: gattKeys))
        return (bond, gatt)
    }

    static func longTermKey(_ object: BondFileObject?) throws(BondDocumentError) -> LongTermKey? {
        guard let object else { return nil }
        return LongTermKey(key: try object.key128("key"), ediv: UInt16(try object.integer("ediv", in: 0...0xFFFF)),
                           rand: try object.hex64("rand"))
    }
}
