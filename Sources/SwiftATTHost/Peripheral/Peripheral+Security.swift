import SwiftATTGATT

extension Peripheral {
    /// Asks the central on `handle` to secure the link (a Security Request) and waits for
    /// it to encrypt with its bond or pair; returns the level reached.
    @discardableResult
    public func secure(_ handle: UInt16) async throws(PairingError) -> GATTSecurityLevel {
        try await controller.secure(handle, pairAnew: false).get()
    }

    /// The security of the link on `handle` now.
    public func securityLevel(of handle: UInt16) async -> GATTSecurityLevel {
        await controller.securityLevel(of: handle)
    }
}
