import SwiftATTCore

/// What this device keeps of a peer it paired with and bonded to: enough to encrypt the
/// next connection without pairing again, to recognise the peer under a new resolvable
/// private address, and to verify its signed writes.
///
/// Core 5.4 Vol 3 Part H §2.4 and Part C §9.4.2. An LE link is encrypted by its central
/// with a key the peripheral looks up by EDIV and Rand, so a bond keeps a key per role
/// this device may play: with Secure Connections both are the one derived LTK (EDIV and
/// Rand zero); with legacy pairing each side distributed its own, and the central
/// always uses the one the peripheral side handed out — the peer's when this device is
/// central, ours when it is peripheral.
public struct Bond: Sendable, Hashable {
    /// The peer's identity address when it sent one, otherwise the address it paired from.
    public var peer: BluetoothAddress
    /// The key this device encrypts with as central.
    public var centralKey: LongTermKey?
    /// The key this device hands its controller when the peer, as central, asks.
    public var peripheralKey: LongTermKey?
    /// The peer's IRK (Identity Information), to resolve its private addresses; `nil` if it sent
    /// none.
    public var peerIdentityResolvingKey: UInt128?
    /// The peer's CSRK (Signing Information), to verify its Signed Write Commands.
    public var peerSignatureKey: UInt128?
    /// The CSRK this device distributed, to sign its own writes to the peer.
    public var localSignatureKey: UInt128?
    /// The key came from MITM-protected pairing.
    public var authenticated: Bool
    /// The keys came from LE Secure Connections (otherwise LE legacy pairing).
    public var secureConnections: Bool
    /// Octets, 7–16.
    public var keySize: Int
    /// The last SignCounter accepted in the peer's signed data; a signature must carry a
    /// higher one (replay protection, Part H §2.4.5). `nil` before the first.
    public var peerSignCounter: UInt32?
    /// The SignCounter this device signs its next data with, under `localSignatureKey`.
    public var localSignCounter: UInt32 = 0

    /// A bond with the keys a pairing produced, its sign counters not yet started.
    public init(peer: BluetoothAddress, centralKey: LongTermKey?, peripheralKey: LongTermKey?,
                peerIdentityResolvingKey: UInt128? = nil, peerSignatureKey: UInt128? = nil,
                localSignatureKey: UInt128? = nil, authenticated: Bool, secureConnections: Bool, keySize: Int) {
        self.peer = peer
        self.centralKey = centralKey
        self.peripheralKey = peripheralKey
        self.peerIdentityResolvingKey = peerIdentityResolvingKey
        self.peerSignatureKey = peerSignatureKey
        self.localSignatureKey = localSignatureKey
        self.authenticated = authenticated
        self.secureConnections = secureConnections
        self.keySize = keySize
    }

    /// The bond a pairing made with a peer that connected from `address`.
    public init(result: PairingResult, peerAddress address: BluetoothAddress) {
        let derived = result.secureConnections ? result.longTermKey : nil
        self.init(
            peer: result.peerKeys.identityAddress ?? address,
            centralKey: derived ?? result.peerKeys.longTermKey,
            peripheralKey: derived ?? result.localKeys.longTermKey,
            peerIdentityResolvingKey: result.peerKeys.identityResolvingKey,
            peerSignatureKey: result.peerKeys.signatureKey,
            localSignatureKey: result.localKeys.signatureKey,
            authenticated: result.authenticated, secureConnections: result.secureConnections,
            keySize: result.keySize)
    }

    /// Whether `address` is this peer: its identity address, or a resolvable private
    /// address its IRK resolves (Core 5.4 Vol 6 Part B §1.3.2.3: hash = ah(IRK, prand)).
    public func matches(_ address: BluetoothAddress) -> Bool {
        if address == peer { return true }
        guard let irk = peerIdentityResolvingKey, address.randomSubtype == .resolvablePrivate else { return false }
        return ResolvablePrivateAddress.resolves(address, with: irk)
    }
}
