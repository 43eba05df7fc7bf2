import SwiftATTCore
import SwiftATTSMP

/// What this device offers and demands when it pairs.
///
/// Core 5.4 Vol 3 Part H §3.5.1–§3.5.2: the fields of the Pairing Request or Response,
/// plus the local policy the spec leaves to the device (the shortest key it accepts,
/// Secure Connections Only mode, whether it insists on MITM protection) and the keys it
/// hands out in the key distribution phase.
public struct PairingConfiguration: Sendable, Hashable {
    /// What the user can do on this device, as the association model needs it.
    public var ioCapability: IOCapability
    /// Exchange keys and keep them (a bond), or pair for this connection only.
    public var bonding: Bool
    /// Refuse a pairing that is not protected against a man in the middle
    /// (Authentication Requirements when the method would be Just Works).
    public var requiresMITM: Bool
    /// LE Secure Connections preferred, required (Secure Connections Only mode) or disabled.
    public var secureConnections: SecureConnectionsMode
    /// The longest key offered; 16 unless a peer needs shorter.
    public var maximumKeySize: UInt8
    /// The shortest negotiated key accepted (Encryption Key Size otherwise).
    public var minimumKeySize: UInt8
    /// This device's identity: its IRK and identity address, distributed when the peer
    /// asks for the identity key. `nil` when it has none to give.
    public var identity: LocalIdentity?
    /// This device's signature key (CSRK), distributed when the peer asks for it.
    public var signatureKey: UInt128?
    /// Keys asked of the peer (only these are accepted in the key distribution phase).
    public var requestedKeys: KeyDistribution
    /// Ask the application before answering a Pairing Request (responder only).
    public var confirmsIncomingPairing: Bool
    /// Out-of-band data: ours (which the peer learnt another way) and the peer's.
    public var outOfBand: OutOfBandData?
    /// The passkey this device shows in Passkey Entry instead of drawing one: a headless
    /// device with its PIN printed on a label, or a test. Weaker than a fresh passkey per
    /// pairing (Part H §2.3.5.3 draws one at random); `nil` draws one each time. A
    /// number above 999999, which no user could type, fails `validate()`.
    public var fixedPasskey: UInt32?

    /// A configuration; the defaults pair Just Works, bond, prefer Secure Connections and ask
    /// for every key.
    public init(ioCapability: IOCapability = .noInputNoOutput, bonding: Bool = true,
                requiresMITM: Bool = false, secureConnections: SecureConnectionsMode = .preferred,
                maximumKeySize: UInt8 = 16, minimumKeySize: UInt8 = 7, identity: LocalIdentity? = nil,
                signatureKey: UInt128? = nil,
                requestedKeys: KeyDistribution = [.encryptionKey, .identityKey, .signingKey],
                confirmsIncomingPairing: Bool = false, outOfBand: OutOfBandData? = nil,
                fixedPasskey: UInt32? = nil) {
        self.ioCapability = ioCapability
        self.bonding = bonding
        self.requiresMITM = requiresMITM
        self.secureConnections = secureConnections
        self.maximumKeySize = maximumKeySize
        self.minimumKeySize = minimumKeySize
        self.identity = identity
        self.signatureKey = signatureKey
        self.requestedKeys = requestedKeys
        self.confirmsIncomingPairing = confirmsIncomingPairing
        self.outOfBand = outOfBand
        self.fixedPasskey = fixedPasskey
    }

    /// The keys this device can give: an LTK always (legacy pairing generates one), the
    /// identity and signature keys when configured.
    var offeredKeys: KeyDistribution {
        var keys: KeyDistribution = [.encryptionKey]
        if identity != nil { keys.insert(.identityKey) }
        if signatureKey != nil { keys.insert(.signingKey) }
        return keys
    }

    /// The shortest key this configuration can end with: Secure Connections Only mode
    /// demands 128 bits (Part C §10.2.4).
    var effectiveMinimumKeySize: UInt8 {
        secureConnections == .only ? 16 : max(7, minimumKeySize)
    }

    /// The Authentication Requirements field this device sends (in its Pairing Request
    /// or Response, and in a Security Request).
    public var authenticationRequirements: AuthenticationRequirements {
        var a: AuthenticationRequirements = []
        if bonding { a.insert(.bonding) }
        if requiresMITM || ioCapability != .noInputNoOutput { a.insert(.mitm) }
        if secureConnections != .disabled { a.insert(.secureConnections) }
        return a
    }
}

/// The identity a device hands out so that a bonded peer recognises it under any
/// resolvable private address (Core 5.4 Vol 3 Part H §2.4.2.1, §3.6.4–§3.6.5).
public struct LocalIdentity: Sendable, Hashable {
    /// The IRK from which this device's resolvable private addresses are made.
    public var identityResolvingKey: UInt128
    /// A public or static random address.
    public var address: BluetoothAddress

    /// An identity of `address` and its IRK.
    public init(identityResolvingKey: UInt128, address: BluetoothAddress) {
        self.identityResolvingKey = identityResolvingKey
        self.address = address
    }
}

/// LE Secure Connections out-of-band data (Core 5.4 Vol 3 Part H §2.3.5.6.4): a random
/// number r and its confirm value C = f4(PKx, PKx, r, 0) over the device's public key.
public struct OutOfBandData: Sendable, Hashable {
    /// The pair this device generated and gave the peer out of band; `nil` if none.
    public var local: Values?
    /// The pair the peer gave this device out of band; `nil` if none.
    public var peer: Values?

    /// A random number r and its confirm value C, as one side passes them out of band.
    public struct Values: Sendable, Hashable {
        /// The random number r.
        public var random: UInt128
        /// The confirm value C = f4(PKx, PKx, r, 0).
        public var confirm: UInt128
        /// A pair as received or generated.
        public init(random: UInt128, confirm: UInt128) {
            self.random = random
            self.confirm = confirm
        }
    }

    /// Out-of-band data: ours, the peer's, or both.
    public init(local: Values? = nil, peer: Values? = nil) {
        self.local = local
        self.peer = peer
    }
}
