import SwiftATTPDU

extension GATTClient {
    /// Reliable Writes (Core 5.4 Vol 3 Part G §4.9.5): several values, each possibly
    /// long, written together or not at all, each part verified.
    ///
    /// Prepare Write Requests with parts of at most ATT_MTU−5 octets, value after value;
    /// each response must echo the part's handle, offset and bytes exactly. On a mismatch
    /// the client sends Execute Write (cancel) and fails with `reliableWriteEchoMismatch`;
    /// on an Error Response it cancels too and fails with that error. After the last
    /// echo, Execute Write (write) commits everything. The characteristics should have
    /// the Reliable Write extended property (§3.3.3.1); the server decides.
    public struct ReliableWrites: GATTProcedure, GATTCoreProcedure {
        public typealias Output = Void

        /// One value to write: where, what, and from which offset within the value.
        public struct Write: Sendable, Hashable {
            /// The value's handle.
            public var handle: UInt16
            /// The bytes to write.
            public var value: [UInt8]
            /// Where in the value they go.
            public var offset: UInt16

            /// A write of `value` at `offset` of the value at `handle`.
            public init(handle: UInt16, value: [UInt8], offset: UInt16 = 0) {
                self.handle = handle
                self.value = value
                self.offset = offset
            }
        }

        public let mtu: Int
        /// The writes, executed together or not at all.
        public let writes: [Write]

        var core: GATTProcedureCore<Output>
        var prepared: GATTProcedurePreparedWrites

        /// A procedure writing `writes` as one.
        public init(_ writes: [Write], mtu: Int) {
            self.mtu = GATTClient.clamp(mtu)
            self.writes = writes
            prepared = GATTProcedurePreparedWrites(writes.map { ($0.handle, $0.value, $0.offset) }, reliable: true, mtu: self.mtu)
            core = GATTProcedureCore(roundTripLimit: prepared.roundTrips)
        }

        /// Prepare Write Requests the procedure sends before Execute Write.
        public var prepareWriteCount: Int { prepared.parts.count }

        public mutating func start() -> Step {
            guard !writes.isEmpty else { return core.begin(.done(())) }
            return core.begin(prepared.start())
        }

        mutating func advance(_ pdu: ATTPDU) -> Step { prepared.advance(pdu, done: ()) }
    }
}
