extension GATTServer {
    /// What one client's prepare queue holds (Core 5.4 Vol 3 Part F §3.4.6.1): bounded
    /// by `Configuration.prepareQueueLimit` and `prepareQueueByteLimit`, beyond which
    /// Prepare Write Requests get Prepare Queue Full.
    public struct PrepareQueueUsage: Sendable, Hashable {
        /// Prepared writes queued.
        public var writes: Int
        /// Octets of part values queued.
        public var octets: Int

        /// Usage of `writes` prepared writes holding `octets` octets.
        public init(writes: Int, octets: Int) {
            self.writes = writes
            self.octets = octets
        }
    }

    /// The prepare queue of client `id`, or `nil` when it is not connected.
    public func prepareQueueUsage(of id: ConnectionID) -> PrepareQueueUsage? {
        connections[id].map { PrepareQueueUsage(writes: $0.prepareQueue.count, octets: $0.prepareQueueBytes) }
    }
}
