extension GATTServer {
    /// Which of a client's ATT bearers a request came on (Core 5.4 Vol 3 Part G §5.3.2):
    /// the unenhanced bearer on the fixed channel, or an Enhanced one, named by this
    /// host's CID of its L2CAP channel.
    ///
    /// The server answers the same on every bearer; what depends on them is Robust
    /// Caching (Part G §2.5.2.1): Database Out Of Sync is sent once per bearer, and a
    /// client using more than one bearer becomes change-aware only by reading the
    /// Database Hash. And pushes follow the unenhanced bearer's ATT_MTU, as they go out
    /// on it: an Enhanced bearer's does not change the connection's.
    public enum Bearer: Hashable, Sendable, CustomStringConvertible {
        /// The fixed ATT channel (CID 0x0004), always there.
        case unenhanced
        /// An Enhanced ATT bearer: an L2CAP Enhanced Credit Based channel on PSM 0x0027,
        /// named by this host's CID of it.
        case enhanced(cid: UInt16)

        public var description: String {
            switch self {
            case .unenhanced: return "the unenhanced bearer"
            case let .enhanced(cid): return "the Enhanced bearer on CID 0x" + String(cid, radix: 16, uppercase: true)
            }
        }
    }

    /// An Enhanced bearer opened on the connection `id`: from now on the client uses
    /// several bearers (a request on one the server was not told of counts as this).
    public func bearerOpened(_ bearer: Bearer, for id: ConnectionID) {
        guard case let .enhanced(cid) = bearer else { return }
        connections[id]?.enhancedBearers.insert(cid)
    }

    /// The Enhanced bearer closed: what was recorded for it goes (its CID may name
    /// another bearer later).
    public func bearerClosed(_ bearer: Bearer, for id: ConnectionID) {
        guard case let .enhanced(cid) = bearer else { return }
        connections[id]?.enhancedBearers.remove(cid)
        connections[id]?.outOfSyncSent.remove(bearer)
    }

    /// The Enhanced bearers the connection `id` has open, by CID.
    public func enhancedBearers(of id: ConnectionID) -> Set<UInt16> {
        connections[id]?.enhancedBearers ?? []
    }
}
