import SwiftATTPDU

/// What a read handler is told about the read it serves.
public struct GATTReadContext: Sendable {
    /// The client reading.
    public let connection: GATTServer.ConnectionID
    /// The attribute being read.
    public let handle: UInt16
    /// Where the client's read starts (Read Blob); 0 for every other request. The handler
    /// still returns the whole value: the server cuts it. A handler whose value changes
    /// between calls can use offset 0 as the moment to take a snapshot for a long read
    /// (Core 5.4 Vol 3 Part F §3.4.4.5 leaves consistency to the higher layer).
    public let offset: Int
    /// The request that caused the read (Read, Read Blob, Read By Type, Read Multiple, …).
    public let request: ATTOpcode

    /// A read of `handle` by `connection`.
    public init(connection: GATTServer.ConnectionID, handle: UInt16, offset: Int, request: ATTOpcode) {
        self.connection = connection
        self.handle = handle
        self.offset = offset
        self.request = request
    }
}
