import SwiftATTGATT
import SwiftATTL2CAP

/// What the host's inbound path holds and has thrown away: the bounds a hostile or
/// broken peer runs into, for logs and tests.
public struct HostDiagnostics: Sendable, Hashable {
    /// Connections with an L2CAP frame partly received.
    public var partialFrames: Int
    /// Octets of partly received frames held, all connections together.
    public var bufferedFrameOctets: Int
    /// The largest L2CAP payload accepted; longer frames are dropped as they start.
    public var maximumFramePayload: Int
    /// Why inbound ACL was dropped, most recent last (the last 64).
    public var droppedFrames: [L2CAPRecombiner.DropReason]
}

extension Controller {
    /// What the inbound path holds now (`nil` once the controller is closed).
    public func diagnostics() async -> HostDiagnostics? {
        await perform(orElse: nil) { stack in
            stack.l2cap.diagnostics
        }
    }
}

extension Peripheral {
    /// The prepare queue of the central on connection `handle` (`nil` when it is not
    /// connected): bounded by the server's `Configuration`.
    public func prepareQueueUsage(on handle: UInt16) async -> GATTServer.PrepareQueueUsage? {
        await controller.perform(orElse: nil) { stack in stack.attributes.gattServer?.prepareQueueUsage(of: GATTServer.ConnectionID(handle)) }
    }
}
