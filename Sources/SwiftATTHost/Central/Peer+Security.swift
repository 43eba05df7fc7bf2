import SwiftATTCore
import SwiftATTGATT
import SwiftATTPDU

extension Peer {
    /// Pairs with the peer now, even if a bond exists (the new keys replace it), and
    /// returns the link's security afterwards. The host's `SecurityConfiguration` says
    /// what is offered; its `PairingDelegate` answers for the user.
    @discardableResult
    public func pair() async throws(PairingError) -> GATTSecurityLevel {
        try await controller.secure(handle, pairAnew: true).get()
    }

    /// Makes the link encrypted: with the bond's key when there is one, by pairing
    /// otherwise; at once when it is encrypted already.
    @discardableResult
    public func secure() async throws(PairingError) -> GATTSecurityLevel {
        try await controller.secure(handle, pairAnew: false).get()
    }

    /// Brings the link up to what `access` asks (the requirements of the characteristics
    /// the caller is about to use, or of the whole connection) before any request is
    /// refused for want of it: encrypts with the bond, or pairs when there is none; then,
    /// if the link still falls short (a bond from Just Works where authentication is
    /// asked, a key too short), pairs anew once. Returns the link's level; throws
    /// `.insufficientSecurity` when even that did not reach it — this host's IO
    /// capability or the peer's allowed no more — and the link stays as it is.
    /// Authorization is the server's to grant and is not judged here.
    @discardableResult
    public func require(_ access: AttributePermissions.Access) async throws(PairingError) -> GATTSecurityLevel {
        var level = await securityLevel
        if Self.falls(level, shortOf: access) == nil { return level }
        if !level.isEncrypted {
            level = try await secure()
            if Self.falls(level, shortOf: access) == nil { return level }
        }
        level = try await pair()
        if Self.falls(level, shortOf: access) == nil { return level }
        throw .insufficientSecurity(reached: level, required: access)
    }

    /// The error a server would answer a link at `level` with for `access`.
    static func falls(_ level: GATTSecurityLevel, shortOf access: AttributePermissions.Access) -> ATTErrorCode? {
        access.error(security: level, authorized: true)
    }

    /// The peer's identity address — the same whichever resolvable private address it
    /// connected from — when its bond or this link's pairing told it; nil otherwise.
    public var identityAddress: BluetoothAddress? {
        get async { await controller.identity(ofConnection: handle) }
    }

    /// The link's security now.
    public var securityLevel: GATTSecurityLevel {
        get async { await controller.securityLevel(of: handle) }
    }

    /// After a request refused for want of security: encrypt or pair as the error asks
    /// (Insufficient Authentication on an encrypted link needs a new, authenticated
    /// pairing; the others need encryption), and say whether to retry. Throws what
    /// stopped it.
    func secureAfter(_ code: ATTErrorCode) async throws(GATTClientError) {
        let level = await securityLevel
        let pairAnew = code == .encryptionKeySizeTooShort || (code == .insufficientAuthentication && level.isEncrypted)
        switch await controller.secure(handle, pairAnew: pairAnew) {
        case .success:
            return
        case let .failure(error):
            throw .securityFailed(code, reason: error.description)
        }
    }

    /// Whether a refusal is one securing the link can cure.
    static func isSecurityRefusal(_ error: GATTClientError) -> ATTErrorCode? {
        guard case let .attributeError(code, _, _) = error else { return nil }
        switch code {
        case .insufficientAuthentication, .insufficientEncryption, .encryptionKeySizeTooShort: return code
        default: return nil
        }
    }
}
