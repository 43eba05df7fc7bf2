import SwiftATTCore
import SwiftATTGATT
import SwiftATTHost
import SwiftATTSecurity

/// What a bond file holds: per adapter, the identity this host uses on it, the bonds
/// made under that identity, and with each bond what the GATT server keeps for the peer.
/// The value `BondFile` reads and writes; its JSON form is documented in
/// Documentation/Security.md ("Bonds that last") and `BondDocument+JSON.swift`.
public struct BondDocument: Sendable, Hashable {
    /// The `version` this code writes and the only one it reads.
    public static let currentVersion = 1

    /// One adapter's identity and bonds.
    public struct Adapter: Sendable, Hashable {
        /// The adapter these belong to.
        public var name: AdapterIdentifier
        /// The static random identity address and the IRK distributed with it.
        public var identity: LocalIdentity
        /// In the order they were made; at most one per peer.
        public var bonds: [Bond]
        /// What the GATT server keeps for bonded clients, by their bond's `peer`. Written
        /// as each bond's `gatt` member: an entry for a peer without a bond is not.
        public var gattClients: [BluetoothAddress: GATTBondedClient]

        /// An adapter's entry; GATT state for a peer with no bond in `bonds` is dropped.
        public init(name: AdapterIdentifier, identity: LocalIdentity, bonds: [Bond] = [],
                    gattClients: [BluetoothAddress: GATTBondedClient] = [:]) {
            self.name = name
            self.identity = identity
            self.bonds = bonds
            self.gattClients = gattClients.filter { entry in bonds.contains { $0.peer == entry.key } }
        }

        /// The bonds and GATT state, as a host's `BondStore` holds them.
        public var contents: BondStore.Contents {
            BondStore.Contents(bonds: bonds, gattClients: gattClients)
        }
    }

    /// In the order they were first used; at most one per name.
    public var adapters: [Adapter]

    /// A document holding `adapters` (none: a new file).
    public init(adapters: [Adapter] = []) {
        self.adapters = adapters
    }

    /// The adapter named `name`, if the document has it.
    public subscript(name: AdapterIdentifier) -> Adapter? {
        adapters.first { $0.name == name }
    }

    /// Replaces the bonds of the adapter named `name` (the GATT state of a bond no longer
    /// there goes with it); false when there is none.
    @discardableResult
    public mutating func setBonds(_ bonds: [Bond], of name: AdapterIdentifier) -> Bool {
        guard let index = adapters.firstIndex(where: { $0.name == name }) else { return false }
        adapters[index].bonds = bonds
        adapters[index].gattClients = adapters[index].gattClients.filter { entry in bonds.contains { $0.peer == entry.key } }
        return true
    }

    /// Replaces the bonds and GATT state of the adapter named `name` with what a host's
    /// store holds; false when there is none.
    @discardableResult
    public mutating func setContents(_ contents: BondStore.Contents, of name: AdapterIdentifier) -> Bool {
        guard let index = adapters.firstIndex(where: { $0.name == name }) else { return false }
        adapters[index].bonds = contents.bonds
        adapters[index].gattClients = contents.gattClients
        return true
    }

    /// Every bond, with the adapter it was made on.
    public var allBonds: [(adapter: AdapterIdentifier, bond: Bond)] {
        adapters.flatMap { adapter in adapter.bonds.map { (adapter.name, $0) } }
    }
}
