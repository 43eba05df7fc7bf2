import SwiftATTSecurity

/// How a host pairs and encrypts: the pairing features it offers and the policies that
/// decide when it pairs without being asked.
///
/// Core 5.4 Vol 3 Part C §10.2–§10.3 (LE security mode 1) and Part H §2.4.6–§2.4.7
/// (Security Request, and what a central does with one).
public struct SecurityConfiguration: Sendable, Hashable {
    /// What this host says in its Pairing Request or Response.
    public var pairing: PairingConfiguration
    /// Central: answer a peripheral's Security Request by encrypting with the bond, or
    /// by pairing when there is none. A central that says no leaves the link as it is.
    public var pairsWhenAsked: Bool
    /// Peripheral: send a Security Request as soon as a central connects (with the
    /// authentication requirements of `pairing`), as a device whose data is all
    /// protected does to have the central pair at once.
    public var requestsSecurityOnConnection: Bool
    /// Central: a GATT request refused with Insufficient Authentication or Insufficient
    /// Encryption (or Encryption Key Size) makes the host encrypt or pair, then retry
    /// the request once, as iOS and Android do.
    public var pairsOnSecurityError: Bool
    /// Central: encrypt a bonded peer's link with the bond as soon as it connects, so
    /// that what the bond protects is readable at once (BlueZ does the same).
    public var encryptsBondedLinks: Bool
    /// Privacy (Core 5.4 Vol 3 Part C §10.7, Vol 6 Part B §1.3.2.2): advertise, scan and
    /// connect from a resolvable private address made from this host's IRK rather than
    /// from its identity address, and take a new one when it is older than this (phones
    /// use 15 minutes) at the next start of advertising, scanning or connecting. A bonded
    /// peer recognises the host under each of them; nobody else can link them. Needs an
    /// identity (`start(storage:)`, or `pairing.identity`); nil, or no identity: the
    /// host's static address throughout.
    public var privateAddressLifetime: Duration?

    /// A configuration; the defaults pair when a peer asks, pair again on a security error
    /// and encrypt bonded links, with no private addresses.
    public init(pairing: PairingConfiguration = PairingConfiguration(), pairsWhenAsked: Bool = true,
                requestsSecurityOnConnection: Bool = false, pairsOnSecurityError: Bool = true,
                encryptsBondedLinks: Bool = true, privateAddressLifetime: Duration? = nil) {
        self.pairing = pairing
        self.encryptsBondedLinks = encryptsBondedLinks
        self.pairsWhenAsked = pairsWhenAsked
        self.requestsSecurityOnConnection = requestsSecurityOnConnection
        self.pairsOnSecurityError = pairsOnSecurityError
        self.privateAddressLifetime = privateAddressLifetime
    }
}
