import SwiftATTCore
import SwiftATTSecurity

/// Where a host keeps what must outlive it, per adapter: the identity it advertises and
/// connects with (and distributes when it pairs), and its bonds.
///
/// A bond is worth keeping only with the identity it was made under: a bonded peer
/// knows this device by its identity address and IRK (Core 5.4 Vol 3 Part H §2.4.2.1),
/// so a host that came back under a fresh static random address would be a stranger to
/// every peer it bonded with. `Controller.start(storage:)` asks once the controller's
/// public address is known, and sets the identity's address before anything is sent.
public protocol SecurityStorage: Sendable {
    /// The identity and bonds of `adapter`, made (and kept) the first time it is asked for.
    func security(for adapter: AdapterIdentifier) throws(SecurityStorageError) -> StoredSecurity
}

/// What a `SecurityStorage` keeps for one adapter.
public struct StoredSecurity: Sendable {
    /// The IRK and static random identity address.
    public var identity: LocalIdentity
    /// The bonds made under that identity; its changes reach the storage.
    public var bonds: BondStore

    /// What a storage keeps for an adapter.
    public init(identity: LocalIdentity, bonds: BondStore) {
        self.identity = identity
        self.bonds = bonds
    }
}

/// Which adapter a host runs on, as its storage files it: the controller's public
/// address, or the transport as the user named it (`tcp:127.0.0.1:9000`) when the
/// controller has no public address (00:00:00:00:00:00, as some virtual controllers
/// report).
///
/// The public address follows a USB dongle from one `hciN` number (or serial port) to
/// another; a transport string is all a controller without an address offers, and it
/// names the same virtual controller as long as the user keeps naming it so.
public struct AdapterIdentifier: Hashable, Sendable, CustomStringConvertible {
    /// `F0:F0:F0:F0:00:01` or `tcp:127.0.0.1:9000`.
    public let name: String

    /// An identifier as the storage wrote it.
    public init(_ name: String) {
        self.name = name
    }

    /// The public address, or `transport` when the controller reports none (all zeros or
    /// all ones).
    public init(publicAddress: BluetoothAddress, transport: String) {
        let usable = publicAddress.value != 0 && publicAddress.value != 0xFFFF_FFFF_FFFF
        self.init(usable ? publicAddress.description : transport)
    }

    public var description: String { name }
}

/// Why a storage could not give an identity or keep a change, in a sentence that names
/// the file (or whatever the storage is) and what went wrong there.
public struct SecurityStorageError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong, naming the file or whatever the storage is.
    public let message: String

    /// An error saying `message`.
    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
