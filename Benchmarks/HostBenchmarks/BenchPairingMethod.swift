import SwiftATTCore
import SwiftATTHost
import SwiftATTSecurity
import SwiftATTSMP

/// The two association models the pairing benchmark measures, both LE Secure
/// Connections with bonding (Core 5.4 Vol 3 Part H §2.3.5.6): Just Works, where neither
/// side has input or output, and Passkey Entry, where both sides are KeyboardOnly and
/// type the same passkey (§2.3.5.6.3: twenty rounds of confirm and random values, one
/// per bit). Each side distributes its identity (IRK and static random address) and
/// asks for the other's, as the Bumble peers are told to (Tests/bench/bumble_pairing_bench.py),
/// so every pair in the benchmark makes the same exchange.
enum BenchPairingMethod: String, CaseIterable, Sendable {
    case justWorks = "Just Works"
    case passkeyEntry = "Passkey Entry"

    /// What both sides type: a fixed passkey agreed beforehand, so that no user is asked.
    static let passkey: UInt32 = 123_456

    var ioCapability: IOCapability { self == .justWorks ? .noInputNoOutput : .keyboardOnly }

    /// A side's pairing settings, distributing `identity`.
    func configuration(identity: LocalIdentity) -> PairingConfiguration {
        PairingConfiguration(ioCapability: ioCapability, requiresMITM: self == .passkeyEntry, identity: identity,
                             requestedKeys: [.encryptionKey, .identityKey])
    }

    /// A host's security settings, its identity address being `address`.
    func security(address: BluetoothAddress, identityResolvingKey: UInt128) -> SecurityConfiguration {
        SecurityConfiguration(pairing: configuration(identity: LocalIdentity(identityResolvingKey: identityResolvingKey, address: address)))
    }

    var delegate: AutomaticPairingDelegate {
        AutomaticPairingDelegate(passkey: self == .passkeyEntry ? Self.passkey : nil)
    }

    /// The options that make a Bumble peer pair the same way.
    var bumbleArguments: [String] { self == .passkeyEntry ? ["--passkey", String(Self.passkey)] : [] }
}
