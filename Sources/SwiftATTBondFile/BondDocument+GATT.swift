import SwiftATTCore
import SwiftATTGATT
import SwiftATTJSON

// A bond's `gatt` member: what the GATT server keeps for the peer (`GATTBondedClient`),
// in the form `BondDocument+JSON.swift` documents.
extension BondDocument {
    static let gattKeys = ["databaseHash", "changeAware", "clientSupportedFeatures", "serviceChangedOwed", "subscriptions"]
    static let rangeKeys = ["startingHandle", "endingHandle"]
    static let subscriptionKeys = ["valueHandle", "uuid", "notification", "indication"]

    /// A bond's `gatt` member as the file writes it.
    public static func json(_ client: GATTBondedClient) -> JSONValue {
        var members = [
            JSONMember("databaseHash", .string(hex(client.databaseHash))),
            JSONMember("changeAware", .bool(client.changeAware)),
            JSONMember("clientSupportedFeatures", .string(Hex.encode(client.clientSupportedFeatures))),
        ]
        if let owed = client.serviceChangeOwed {
            members.append(JSONMember("serviceChangedOwed", .object([
                JSONMember("startingHandle", .integer(Int(owed.lowerBound))),
                JSONMember("endingHandle", .integer(Int(owed.upperBound))),
            ])))
        }
        members.append(JSONMember("subscriptions", .array(client.subscriptions.map { subscription in
            .object([
                JSONMember("valueHandle", .integer(Int(subscription.valueHandle))),
                JSONMember("uuid", .string(subscription.characteristic.description)),
                JSONMember("notification", .bool(subscription.configuration.contains(.notification))),
                JSONMember("indication", .bool(subscription.configuration.contains(.indication))),
            ])
        })))
        return .object(members)
    }

    /// A bond's `gatt` member, when it has one; read in the order it is written, so that
    /// the error is the first wrong value in the file.
    static func gattClient(_ object: BondFileObject?) throws(BondDocumentError) -> GATTBondedClient? {
        guard let object else { return nil }
        let hash = try object.key128("databaseHash")
        let changeAware = try object.bool("changeAware")
        let features = try object.octets("clientSupportedFeatures", maximum: Attribute.clientSupportedFeaturesMaximum)
        var owed: ClosedRange<UInt16>? = nil
        if let range = try object.object("serviceChangedOwed", keys: rangeKeys) {
            let start = try range.integer("startingHandle", in: 0x0001...0xFFFF)
            let end = try range.integer("endingHandle", in: 0x0001...0xFFFF)
            guard start <= end else {
                throw BondDocumentError("\(end) is below startingHandle \(start)", at: range.pathOf("endingHandle"))
            }
            owed = UInt16(start)...UInt16(end)
        }
        var subscriptions: [GATTBondedClient.Subscription] = []
        var firstAt: [UInt16: String] = [:]
        for (element, path) in try object.array("subscriptions") {
            let entry = try BondFileObject(element, at: path, keys: subscriptionKeys)
            let handle = UInt16(try entry.integer("valueHandle", in: 0x0001...0xFFFF))
            if let first = firstAt[handle] {
                throw BondDocumentError("a second subscription at value handle \(handle) (the first is \(first))",
                                        at: entry.pathOf("valueHandle"))
            }
            firstAt[handle] = path
            let uuid = try entry.uuid("uuid")
            var configuration: GATTClientConfiguration = []
            if try entry.bool("notification") { configuration.insert(.notification) }
            if try entry.bool("indication") { configuration.insert(.indication) }
            guard !configuration.isEmpty else {
                throw BondDocumentError("neither notification nor indication (a configuration of nothing is not kept)", at: path)
            }
            subscriptions.append(GATTBondedClient.Subscription(valueHandle: handle, characteristic: uuid, configuration: configuration))
        }
        return GATTBondedClient(subscriptions: subscriptions.sorted { $0.valueHandle < $1.valueHandle },
                                clientSupportedFeatures: features, changeAware: changeAware, serviceChangeOwed: owed,
                                databaseHash: hash)
    }
}
