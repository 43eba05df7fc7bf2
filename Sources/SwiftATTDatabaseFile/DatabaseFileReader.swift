import SwiftATTJSON
import SwiftATTCore
import SwiftATTGATT

/// Turns a database file's JSON into services: the document and its services here, the
/// characteristics and descriptors in `DatabaseFileReader+Characteristics.swift`.
struct DatabaseFileReader {
    static let documentKeys = ["name", "appearance", "advertise", "services"]
    static let serviceKeys = ["uuid", "name", "id", "primary", "includes", "characteristics"]

    /// A service read but not yet built: includes are resolved once every id is known.
    struct PlannedService {
        let path: String
        let uuid: BluetoothUUID
        let isPrimary: Bool
        /// Indices of included services, each with the path that named it.
        var includes: [(index: Int, path: String)]
        let characteristics: [GATTCharacteristic]
    }

    let onWrite: @Sendable (DatabaseFile.Write) -> Void
    var names: [BluetoothUUID: String] = [:]

    init(onWrite: @escaping @Sendable (DatabaseFile.Write) -> Void) {
        self.onWrite = onWrite
    }

    mutating func read(_ json: JSONValue) throws(DatabaseFileError) -> DatabaseFile {
        let document = try DatabaseFileObject(json, at: "", keys: Self.documentKeys)
        let name = try document.string("name")
        if let name, name.isEmpty || name.utf8.count > 248 {
            throw DatabaseFileError("must be 1 to 248 octets of UTF-8 (the GAP Device Name's limit)", at: "name")
        }
        let appearance = try document.uint16("appearance") ?? 0

        guard let elements = try document.array("services") else { throw DatabaseFileError("missing", at: "services") }
        guard !elements.isEmpty else { throw DatabaseFileError("no services: give at least one", at: "services") }
        var ids: [String: Int] = [:]
        var includeNames: [[(id: String, path: String)]] = []
        var planned: [PlannedService] = []
        for (index, element) in elements.enumerated() {
            let service = try DatabaseFileObject(element.value, at: element.path, keys: Self.serviceKeys)
            if let id = try service.string("id") {
                if let earlier = ids[id] {
                    throw DatabaseFileError("'\(id)' is already the id of services[\(earlier)]", at: service.pathOf("id"))
                }
                ids[id] = index
            }
            let uuid = try service.uuid("uuid")
            if let label = try service.string("name") { names[uuid] = label }
            var included: [(id: String, path: String)] = []
            for entry in try service.array("includes") ?? [] {
                guard case let .string(id) = entry.value else {
                    throw DatabaseFileError("expected the id of a service, found \(entry.value.kindDescription)", at: entry.path)
                }
                included.append((id, entry.path))
            }
            includeNames.append(included)
            var characteristics: [GATTCharacteristic] = []
            for c in try service.array("characteristics") ?? [] {
                characteristics.append(try characteristic(c.value, at: c.path))
            }
            planned.append(PlannedService(
                path: element.path, uuid: uuid, isPrimary: try service.bool("primary") ?? true,
                includes: [], characteristics: characteristics))
        }
        for (index, included) in includeNames.enumerated() {
            for (id, path) in included {
                guard let target = ids[id] else { throw DatabaseFileError("no service has the id '\(id)'", at: path) }
                guard target != index else { throw DatabaseFileError("a service cannot include itself", at: path) }
                planned[index].includes.append((target, path))
            }
        }
        let services = try Self.build(planned)

        let advertised: [BluetoothUUID]
        if let list = try document.array("advertise") {
            var uuids: [BluetoothUUID] = []
            for entry in list { uuids.append(try DatabaseFileObject.uuid(entry.value, at: entry.path)) }
            advertised = uuids
        } else {
            let primary = planned.filter(\.isPrimary).map(\.uuid)
            let short = primary.filter { $0.uuid16 != nil }
            advertised = short.isEmpty ? Array(primary.prefix(1)) : short
        }
        return DatabaseFile(name: name, appearance: appearance, advertisedServices: advertised, services: services, names: names)
    }

    /// Builds the services so that every included service exists before the service that
    /// includes it (a `GATTService` names its includes by object); an include cycle is an
    /// error at the include that closes it.
    static func build(_ planned: [PlannedService]) throws(DatabaseFileError) -> [GATTService] {
        var built: [Int: GATTService] = [:]
        var visiting: Set<Int> = []
        func make(_ index: Int, namedAt path: String?) throws(DatabaseFileError) -> GATTService {
            if let service = built[index] { return service }
            guard visiting.insert(index).inserted else {
                throw DatabaseFileError("include cycle: \(planned[index].path) includes itself through this", at: path ?? planned[index].path)
            }
            var includes: [GATTService] = []
            for include in planned[index].includes {
                includes.append(try make(include.index, namedAt: include.path))
            }
            visiting.remove(index)
            let p = planned[index]
            let service = GATTService(uuid: p.uuid, isPrimary: p.isPrimary, includedServices: includes, characteristics: p.characteristics)
            built[index] = service
            return service
        }
        var services: [GATTService] = []
        for index in planned.indices { services.append(try make(index, namedAt: nil)) }
        return services
    }
}
