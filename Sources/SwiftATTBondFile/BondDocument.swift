import SwiftATTCore
import SwiftATTHost
import SwiftATTSecurity

/// What a bond file holds: per adapter, the identity this host uses on it and the bonds
/// made under that identity. The value `BondFile` reads and writes; its JSON form is
/// documented in README.md ("Bonds that last") and `BondDocument+JSON.swift`.
public struct BondDocument: Sendable, Hashable {
    /// The `version` this code writes and the only one it reads.
    public static let currentVersion = 1

    /// One adapter's identity and bonds.
    public struct Adapter: Sendable, Hashable {
        public var name: AdapterIdentifier
        /// The static random identity address and the IRK distributed with it.
        public var identity: LocalIdentity
        /// In the order they were made; at most one per peer.
        public var bonds: [Bond]

        public init(name: AdapterIdentifier, identity: LocalIdentity, bonds: [Bond] = []) {
            self.name = name
            self.identity = identity
            self.bonds = bonds
        }
    }

    /// In the order they were first used; at most one per name.
    public var adapters: [Adapter]

    public init(adapters: [Adapter] = []) {
        self.adapters = adapters
    }

    /// The adapter named `name`, if the document has it.
    public subscript(name: AdapterIdentifier) -> Adapter? {
        adapters.first { $0.name == name }
    }

    /// Replaces the bonds of the adapter named `name`; false when there is none.
    @discardableResult
    public mutating func setBonds(_ bonds: [Bond], of name: AdapterIdentifier) -> Bool {
        guard let index = adapters.firstIndex(where: { $0.name == name }) else { return false }
        adapters[index].bonds = bonds
        return true
    }

    /// Every bond, with the adapter it was made on.
    public var allBonds: [(adapter: AdapterIdentifier, bond: Bond)] {
        adapters.flatMap { adapter in adapter.bonds.map { (adapter.name, $0) } }
    }
}
