import SwiftATTBondFile
import SwiftATTCore
import SwiftATTGATT
import SwiftATTHost
import SwiftATTJSON
import SwiftATTSecurity

/// `swift-att bonds [list|remove ADDRESS|clear] [--json] [--keys] [--bonds FILE]`: what
/// the bond file holds — each adapter's identity, the peers bonded under it, what the
/// GATT server keeps for each (subscriptions, change-awareness) and their sign counters
/// — and forgetting bonds, as `bluetoothctl devices Bonded` and `remove` do for BlueZ.
///
/// Listing reads the file without locking it (a host may be running on it; every write
/// is a rename, so the list is of one whole version) and never creates it. Removing
/// takes the lock, since a running host would write its own list back over the change.
/// Key values are printed only with `--keys`: a list pasted into a bug report should
/// not give a bond away.
enum BondsCommand {
    enum Action: String {
        case list, remove, clear
    }

    static func run(_ arguments: [String]) throws(CommandError) -> Int32 {
        let args = try Arguments(arguments, flags: ["--json", "--keys"], options: [BondsFileOption.name], command: "bonds")
        if args.wantsHelp {
            Output.print(Usage.bonds)
            return 0
        }
        let word = args.positionals.first ?? Action.list.rawValue
        guard let action = Action(rawValue: word) else {
            throw .usage("bonds: unknown action '\(word)' (list, remove or clear)")
        }
        let operands = Array(args.positionals.dropFirst())
        let path = BondsFileOption.path(args)
        let json = args.has("--json")
        if args.has("--keys") && action != .list { throw .usage("bonds \(action.rawValue): --keys is for 'list'") }
        switch action {
        case .list:
            if let extra = operands.first { throw .usage("bonds list: unexpected argument '\(extra)'") }
            list(try read(path), path: path, json: json, keys: args.has("--keys"))
            return 0
        case .remove:
            guard operands.count == 1, let address = BluetoothAddress(operands[0]) else {
                throw .usage("bonds remove: give the peer's address (C0:B0:00:00:00:0A)"
                             + (operands.count > 1 ? ", once" : operands.isEmpty ? "" : ", not '\(operands[0])'"))
            }
            return try remove(address, path: path, json: json)
        case .clear:
            if let extra = operands.first { throw .usage("bonds clear: unexpected argument '\(extra)'") }
            return try clear(path: path, json: json)
        }
    }

    static func read(_ path: String) throws(CommandError) -> BondDocument? {
        do {
            return try BondFile.read(atPath: path)
        } catch {
            throw BondsFileOption.commandError(error)
        }
    }

    // MARK: list

    static func list(_ document: BondDocument?, path: String, json: Bool, keys: Bool) {
        if json {
            Output.print(JSONValue.object([
                JSONMember("file", .string(path)),
                JSONMember("exists", .bool(document != nil)),
                JSONMember("identities", .array((document?.adapters ?? []).map { self.json($0, keys: keys) })),
            ]).serialized())
            return
        }
        guard let document else {
            Output.print("No bonds: \(path) does not exist yet.")
            return
        }
        guard !document.adapters.isEmpty else {
            Output.print("No bonds in \(path).")
            return
        }
        Output.print("Bond file \(path)")
        for adapter in document.adapters {
            Output.print("")
            Output.print("Adapter \(adapter.name): identity \(adapter.identity.address) (static random)"
                         + (keys ? ", IRK \(BondDocument.hex(adapter.identity.identityResolvingKey))" : ""))
            if adapter.bonds.isEmpty { Output.print("  no bonds") }
            for bond in adapter.bonds {
                Output.print("  \(bond.peer) (\(typeName(bond.peer)))  \(keyNames(bond).joined(separator: ", "))  \(summary(bond))")
                if let gatt = adapter.gattClients[bond.peer] { Output.print("      GATT: \(summary(gatt))") }
                if let counters = counters(bond) { Output.print("      sign counters: \(counters)") }
                if keys {
                    for (name, value) in keyValues(bond) { Output.print("      \(name.padded(to: 19))\(value)") }
                }
            }
        }
    }

    static func typeName(_ address: BluetoothAddress) -> String {
        address.kind == .public ? "public" : "random"
    }

    /// `Secure Connections, authenticated, 16-octet key`.
    static func summary(_ bond: Bond) -> String {
        [bond.secureConnections ? "Secure Connections" : "legacy",
         bond.authenticated ? "authenticated" : "unauthenticated",
         "\(bond.keySize)-octet key"].joined(separator: ", ")
    }

    /// `2 subscriptions, change-unaware, Service Changed owed for 0x000E–0x0015`.
    static func summary(_ gatt: GATTBondedClient) -> String {
        let count = gatt.subscriptions.count
        var parts = [String(count: count, "subscription"), gatt.changeAware ? "change-aware" : "change-unaware"]
        if let owed = gatt.serviceChangeOwed {
            parts.append("Service Changed owed for \(handle(owed.lowerBound))–\(handle(owed.upperBound))")
        }
        return parts.joined(separator: ", ")
    }

    /// `0x000E`.
    static func handle(_ handle: UInt16) -> String {
        let digits = String(handle, radix: 16, uppercase: true)
        return "0x" + String(repeating: "0", count: 4 - digits.count) + digits
    }

    /// `peer 41, local 7`, once either moved.
    static func counters(_ bond: Bond) -> String? {
        guard bond.peerSignCounter != nil || bond.localSignCounter != 0 else { return nil }
        return "peer \(bond.peerSignCounter.map(String.init) ?? "none yet"), local \(bond.localSignCounter)"
    }

    /// The keys a bond holds, by name: one `LTK` when both roles use the same (Secure
    /// Connections), else each role's.
    static func keyNames(_ bond: Bond) -> [String] {
        var names: [String] = []
        if let central = bond.centralKey, central == bond.peripheralKey {
            names.append("LTK")
        } else {
            if bond.centralKey != nil { names.append("LTK as central") }
            if bond.peripheralKey != nil { names.append("LTK as peripheral") }
        }
        if bond.peerIdentityResolvingKey != nil { names.append("IRK") }
        if bond.peerSignatureKey != nil { names.append("peer CSRK") }
        if bond.localSignatureKey != nil { names.append("local CSRK") }
        return names.isEmpty ? ["no keys"] : names
    }

    static func keyValues(_ bond: Bond) -> [(String, String)] {
        func ltk(_ key: LongTermKey) -> String {
            "\(BondDocument.hex(key.key)) (EDIV \(key.ediv), Rand \(BondDocument.hex(key.rand)))"
        }
        var values: [(String, String)] = []
        if let key = bond.centralKey { values.append(("LTK as central", ltk(key))) }
        if let key = bond.peripheralKey { values.append(("LTK as peripheral", ltk(key))) }
        if let irk = bond.peerIdentityResolvingKey { values.append(("IRK", BondDocument.hex(irk))) }
        if let csrk = bond.peerSignatureKey { values.append(("peer CSRK", BondDocument.hex(csrk))) }
        if let csrk = bond.localSignatureKey { values.append(("local CSRK", BondDocument.hex(csrk))) }
        return values
    }

    static func json(_ adapter: BondDocument.Adapter, keys: Bool) -> JSONValue {
        var members = [
            JSONMember("adapter", .string(adapter.name.name)),
            JSONMember("address", .string(adapter.identity.address.description)),
            JSONMember("addressType", .string(typeName(adapter.identity.address))),
        ]
        if keys { members.append(JSONMember("irk", .string(BondDocument.hex(adapter.identity.identityResolvingKey)))) }
        members.append(JSONMember("bonds", .array(adapter.bonds.map { json($0, gatt: adapter.gattClients[$0.peer], keys: keys) })))
        return .object(members)
    }

    /// The bond without its key values (their names under `keys`), or with them as the
    /// file writes them; its sign counters, and `gatt` as the file writes it (null when
    /// the server kept nothing for the peer).
    static func json(_ bond: Bond, gatt: GATTBondedClient?, keys: Bool) -> JSONValue {
        var present: [JSONValue] = []
        if bond.centralKey != nil { present.append("centralKey") }
        if bond.peripheralKey != nil { present.append("peripheralKey") }
        if bond.peerIdentityResolvingKey != nil { present.append("irk") }
        if bond.peerSignatureKey != nil { present.append("peerCSRK") }
        if bond.localSignatureKey != nil { present.append("localCSRK") }
        var members = [
            JSONMember("peer", .string(bond.peer.description)),
            JSONMember("peerType", .string(typeName(bond.peer))),
            JSONMember("keys", .array(present)),
            JSONMember("authenticated", .bool(bond.authenticated)),
            JSONMember("secureConnections", .bool(bond.secureConnections)),
            JSONMember("keySize", .integer(bond.keySize)),
            JSONMember("peerSignCounter", bond.peerSignCounter.map { .integer(Int($0)) } ?? .null),
            JSONMember("localSignCounter", .integer(Int(bond.localSignCounter))),
            JSONMember("gatt", gatt.map(BondDocument.json) ?? .null),
        ]
        if keys {
            func ltk(_ key: LongTermKey) -> JSONValue {
                .object([JSONMember("key", .string(BondDocument.hex(key.key))), JSONMember("ediv", .integer(Int(key.ediv))),
                         JSONMember("rand", .string(BondDocument.hex(key.rand)))])
            }
            if let key = bond.centralKey { members.append(JSONMember("centralKey", ltk(key))) }
            if let key = bond.peripheralKey { members.append(JSONMember("peripheralKey", ltk(key))) }
            if let irk = bond.peerIdentityResolvingKey { members.append(JSONMember("irk", .string(BondDocument.hex(irk)))) }
            if let csrk = bond.peerSignatureKey { members.append(JSONMember("peerCSRK", .string(BondDocument.hex(csrk)))) }
            if let csrk = bond.localSignatureKey { members.append(JSONMember("localCSRK", .string(BondDocument.hex(csrk)))) }
        }
        return .object(members)
    }

    // MARK: remove and clear

    /// Removes every bond `address` names (its identity address of either type, or a
    /// resolvable private address its IRK resolves) on every adapter.
    static func remove(_ address: BluetoothAddress, path: String, json: Bool) throws(CommandError) -> Int32 {
        let resolvable = BluetoothAddress(address.value, kind: .random)
        let removed = try edit(path) { bond in bond.peer.value == address.value || bond.matches(resolvable) }
        guard !removed.isEmpty else { throw .input("bonds remove: no bond with \(address) in \(path)") }
        report(removed, path: path, json: json)
        return 0
    }

    /// Removes every bond; the identities stay, so that the device keeps its address.
    static func clear(path: String, json: Bool) throws(CommandError) -> Int32 {
        let removed = try edit(path) { _ in true }
        if removed.isEmpty && !json {
            Output.print("No bonds in \(path).")
            return 0
        }
        report(removed, path: path, json: json)
        if !json {
            Output.print("Removed \(String(count: removed.count, "bond")); each adapter keeps its identity.")
        }
        return 0
    }

    /// Removes the bonds `matching` picks, under the file's lock; the bonds removed, with
    /// their adapters. A missing file has none, and is not created.
    static func edit(_ path: String,
                     removing matching: @escaping @Sendable (Bond) -> Bool) throws(CommandError) -> [(adapter: AdapterIdentifier, bond: Bond)] {
        guard try read(path) != nil else { return [] }
        do {
            let file = try BondFile.open(atPath: path)
            defer { file.close() }
            let removed = file.document.allBonds.filter { matching($0.bond) }
            guard !removed.isEmpty else { return [] }
            try file.update { document in
                for adapter in document.adapters {
                    document.setBonds(adapter.bonds.filter { !matching($0) }, of: adapter.name)
                }
            }
            return removed
        } catch {
            throw BondsFileOption.commandError(error)
        }
    }

    static func report(_ removed: [(adapter: AdapterIdentifier, bond: Bond)], path: String, json: Bool) {
        if json {
            Output.print(JSONValue.object([
                JSONMember("file", .string(path)),
                JSONMember("removed", .array(removed.map { entry in
                    .object([JSONMember("adapter", .string(entry.adapter.name)),
                             JSONMember("peer", .string(entry.bond.peer.description)),
                             JSONMember("peerType", .string(typeName(entry.bond.peer)))])
                })),
            ]).serialized())
            return
        }
        for (adapter, bond) in removed {
            Output.print("Removed the bond with \(bond.peer) (\(typeName(bond.peer))) on adapter \(adapter) from \(path).")
        }
    }
}
