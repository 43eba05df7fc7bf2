import SwiftATTHost
import SwiftATTLoopback

/// A swift-att central connected to a `RawPeer` peripheral on a loopback link, at
/// ATT_MTU 23 (no Exchange MTU): the raw side answers whatever the central asks, as
/// honestly or as badly as a test likes. `HostileCentralTarget`'s counterpart.
struct HostilePeripheralTarget {
    let raw: RawPeer
    let central: Central
    let peer: Peer
    /// The connection handle (the same on both sides of a loopback link).
    let handle: UInt16

    static func start(transactionTimeout: Duration = .seconds(30)) async throws -> HostilePeripheralTarget {
        let link = LoopbackLink()
        let raw = try await RawPeer.start(link.addController())
        try await raw.advertise()
        let central = try await Central.start(transport: link.addController().specification, transactionTimeout: transactionTimeout)
        let peer = try await central.connect(raw.address, exchangeMTU: false)
        let handle = try await raw.connectionComplete()
        return HostilePeripheralTarget(raw: raw, central: central, peer: peer, handle: handle)
    }

    func stop() async {
        await central.close()
        raw.close()
    }
}
