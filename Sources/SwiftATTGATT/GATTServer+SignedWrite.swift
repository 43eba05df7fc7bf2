import SwiftATTPDU

extension GATTServer {
    /// A Signed Write Command whose signature the server's owner has checked with the
    /// client's CSRK and SignCounter (Core 5.4 Vol 3 Part H §2.4.5; Part F §3.4.5.4).
    /// Returns whether the value was written; like every command, a refusal is silent.
    ///
    /// The characteristic must allow authenticated signed writes (its property 0x40). On
    /// an encrypted link the write permission is judged as for any write. On a plain link
    /// the signature is all the protection there is (LE security mode 2, Part C §10.2.2):
    /// an open value, or one that needs an authenticated peer when the CSRK came from
    /// authenticated pairing (`signerAuthenticated`), is written; a value that needs
    /// encryption is not — a signature hides nothing.
    @discardableResult
    public func signedWrite(_ command: SignedWriteCommand, from id: ConnectionID, signerAuthenticated: Bool) -> Bool {
        guard let characteristic = database.characteristic(valueHandle: command.handle),
              characteristic.properties.contains(.authenticatedSignedWrites),
              let index = database.index(of: command.handle) else { return false }
        let state = state(id)
        guard let access = database.attributes[index].permissions.write else { return false }
        if state.security.isEncrypted {
            guard access.error(security: state.security, authorized: state.authorized) == nil else { return false }
        } else {
            let requirements = access.requirements
            if requirements.contains(.authorization) && !state.authorized { return false }
            guard requirements.subtracting([.authorization]).isSubset(of: [.authentication]) else { return false }
            if requirements.contains(.authentication) && !signerAuthenticated { return false }
        }
        return writeWhole(command.handle, command.value, kind: .signedCommand, from: id, permissionChecked: true) == nil
    }
}
