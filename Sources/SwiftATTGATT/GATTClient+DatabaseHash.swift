import SwiftATTPDU
import SwiftATTCore

extension GATTClient {
    /// What the server's Database Hash says about a cached database.
    public enum DatabaseHashCheck: Sendable, Hashable {
        /// The hash equals the cached one: the cache is still valid.
        case unchanged
        /// The hash differs, or none was cached: discover the database again, then keep
        /// `hash` with it.
        case changed(hash: [UInt8])
        /// The server has no Database Hash characteristic: rely on Service Changed, or
        /// discover again.
        case unavailable
    }

    /// Checks a cached database against the server's Database Hash characteristic
    /// (0x2B2A, Core 5.4 Vol 3 Part G §7.3).
    ///
    /// One Read Using Characteristic UUID request (§4.8.2) over 0x0001–0xFFFF: the form a
    /// Robust Caching server accepts from a change-unaware client (§2.5.2.1). The hash is
    /// 16 octets, compared as the server sends them (`GATTDatabase.databaseHashValue`).
    public struct CheckDatabaseHash: GATTProcedure, GATTCoreProcedure {
        public typealias Output = DatabaseHashCheck

        public let mtu: Int
        /// The hash kept with the cached database; `nil` when none was kept.
        public let cached: [UInt8]?

        var core = GATTProcedureCore<Output>(roundTripLimit: 1)

        /// A procedure comparing the server's Database Hash with `cached`.
        public init(cached: [UInt8]?, mtu: Int) {
            self.mtu = GATTClient.clamp(mtu)
            self.cached = cached
        }

        public mutating func start() -> Step {
            core.begin(.request(.readByTypeRequest(ReadByTypeRequest(
                startingHandle: 0x0001, endingHandle: 0xFFFF, attributeType: GATTAttributeType.databaseHash))))
        }

        func advance(_ pdu: ATTPDU) -> Step {
            switch pdu {
            case let .errorResponse(error) where error.errorCode == .attributeNotFound:
                return .done(.unavailable)
            case let .errorResponse(error):
                return .failed(.attribute(error))
            case let .readByTypeResponse(response):
                let opcode = ReadByTypeResponse.opcode
                guard let entry = response.attributeDataList.first else { return .failed(.malformedResponse(.emptyList(opcode))) }
                guard entry.value.count == 16 else {
                    return .failed(.malformedResponse(.invalidValueLength(opcode, handle: entry.handle, length: entry.value.count, expected: [16])))
                }
                let hash = Array(entry.value)
                return .done(hash == cached ? .unchanged : .changed(hash: hash))
            default:
                return .failed(.unexpectedResponse(pdu.opcode, request: nil))
            }
        }
    }
}
