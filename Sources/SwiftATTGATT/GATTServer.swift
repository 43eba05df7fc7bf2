import SwiftATTPDU
import SwiftATTCore

/// The GATT server: answers a client's ATT requests from a `GATTDatabase` and produces
/// the notifications and indications its subscribers asked for.
///
/// Pure and loop-confined: no I/O, no threads, no clock. The host's event loop feeds it
/// every request a bearer receives (`handle(_:from:bearer:mtu:)`) and sends what it returns;
/// value handlers run synchronously inside those calls. Exchange MTU, the transaction
/// timeout, one-indication-at-a-time and Invalid PDU belong to the bearer. Per
/// connection it keeps the MTU, the link's security, the authorization flag, Client
/// Characteristic Configuration values, Client Supported Features, the prepare queue and
/// the Robust Caching state; configurations of bonded clients outlive their connections.
/// Core 5.4 Vol 3 Part F §3.4 (the requests), Part G §3–§4 and §7 (GATT).
public final class GATTServer {
    /// Limits the server sets where the spec leaves them to the implementation.
    public struct Configuration: Sendable, Hashable {
        /// Prepared writes one client may queue before Prepare Queue Full (0x09).
        public var prepareQueueLimit: Int
        /// Octets of prepared values one client may queue before Prepare Queue Full.
        public var prepareQueueByteLimit: Int

        /// Limits for each client's prepare queue: 64 writes and 16 KiB by default.
        public init(prepareQueueLimit: Int = 64, prepareQueueByteLimit: Int = 16_384) {
            self.prepareQueueLimit = prepareQueueLimit
            self.prepareQueueByteLimit = prepareQueueByteLimit
        }
    }

    /// One queued Prepare Write: the handle, the offset and a copy of the part.
    struct PreparedWrite {
        let handle: UInt16
        let offset: Int
        let part: [UInt8]
    }

    /// What the server remembers about one connected client.
    struct ConnectionState {
        var mtu: Int
        var security: GATTSecurityLevel
        var authorized: Bool
        /// The peer's identity address when it is bonded: its configuration is kept.
        var bond: BluetoothAddress?
        /// Client Characteristic Configuration values by characteristic value handle;
        /// only non-empty ones are kept.
        var subscriptions: [UInt16: GATTClientConfiguration] = [:]
        /// The Client Supported Features value this client wrote (Part G §7.2).
        var clientFeatures: [UInt8] = [0]
        var prepareQueue: [PreparedWrite] = []
        var prepareQueueBytes = 0
        /// The database changed while writes were queued: Execute Write answers
        /// Database Out Of Sync (Part F §3.4.6.3).
        var prepareQueueOutdated = false
        /// The Enhanced ATT bearers open on the connection, by CID: with any, the client
        /// uses more than one bearer.
        var enhancedBearers: Set<UInt16> = []
        // Robust Caching, Part G §2.5.2.1.
        var changeAware = true
        /// The bearers Database Out Of Sync went out on since the client became
        /// change-unaware: once per bearer.
        var outOfSyncSent: Set<Bearer> = []
        var readHashWhileUnaware = false
        /// The ranges of the Service Changed indications sent and not confirmed yet,
        /// oldest first: indications are confirmed in order (Part F §3.3.2), and a range
        /// whose confirmation never came is still owed when the link goes down.
        var serviceChangesUnconfirmed: [ClosedRange<UInt16>] = []

        /// The client set the Robust Caching bit (Part G §7.2, Table 7.6, bit 0).
        var usesRobustCaching: Bool { (clientFeatures.first ?? 0) & 0x01 != 0 }

        /// How a value of `valueHandle` goes to this client, with its ATT_MTU: nil when it
        /// did not subscribe, is change-unaware under Robust Caching, or may not read it.
        func push(_ valueHandle: UInt16, readAccess: AttributePermissions.Access?) -> (GATTClientConfiguration, mtu: Int)? {
            guard let configuration = subscriptions[valueHandle] else { return nil }
            if usesRobustCaching && !changeAware { return nil }
            if let readAccess, readAccess.error(security: security, authorized: authorized) != nil { return nil }
            return (configuration, mtu)
        }

        /// The client uses exactly one ATT bearer, the unenhanced one.
        var usesOneBearer: Bool { enhancedBearers.isEmpty }

        mutating func becomeChangeAware() {
            changeAware = true
            outOfSyncSent = []
            readHashWhileUnaware = false
        }
    }

    /// What the server keeps for a bonded client between connections (`GATTBondedClient`
    /// is its form outside the server).
    struct BondedState {
        var subscriptions: [UInt16: GATTClientConfiguration]
        var clientFeatures: [UInt8]
        var changeAware: Bool
        /// Handles changed while the client was away, or indicated and not confirmed,
        /// owed as a Service Changed indication.
        var pendingServiceChange: ClosedRange<UInt16>?
    }

    /// The database served (`replaceDatabase` changes it).
    public internal(set) var database: GATTDatabase
    /// The server's limits.
    public let configuration: Configuration
    /// Changes to clients' subscriptions the owner has not taken yet
    /// (`takeSubscriptionChanges()`), oldest first. The server hands them back rather than
    /// calling out, so that it stays a machine its owner drives: the owner takes them
    /// after any call that can make one (`connect`, `disconnect`, `handle`,
    /// `replaceDatabase`).
    public internal(set) var subscriptionChanges: [GATTSubscriptionChange] = []
    /// The bonded clients (by identity address) whose kept state — subscriptions, Client
    /// Supported Features, change-awareness, Service Changed owed — changed, or who
    /// disconnected, since the owner last took them (`takeBondedClientChanges()`): what
    /// it stores again. Handed back, like `subscriptionChanges`, rather than called out.
    public internal(set) var bondedClientChanges: Set<BluetoothAddress> = []

    /// The values the server keeps (`GATTValue.bytes`, User Descriptions, Server
    /// Characteristic Configurations), by the database's slot numbers.
    var values: [[UInt8]]
    var connections: [ConnectionID: ConnectionState] = [:]
    /// `connections`' keys in order, kept by `connect` and `disconnect`: values are
    /// pushed in connection order without sorting per value.
    var connectionOrder: [ConnectionID] = []
    var bonds: [BluetoothAddress: BondedState] = [:]

    /// A server of `database`, with no client connected.
    public init(database: GATTDatabase, configuration: Configuration = Configuration()) {
        self.database = database
        self.configuration = configuration
        self.values = database.initialValues
    }

    // MARK: Connections

    /// Starts serving a client. `bond` is the peer's identity address when it is bonded:
    /// its subscriptions, Client Supported Features and change-awareness from earlier
    /// connections apply again. Returns the PDUs owed to it now: a Service Changed
    /// indication when the database changed while it was away (Part G §7.1). The range
    /// stays owed until the client confirms that indication (`indicationConfirmed`):
    /// a link that goes down first leaves it owed for the next connection.
    @discardableResult
    public func connect(
        _ id: ConnectionID,
        mtu: Int = ATTLimits.defaultMTU,
        security: GATTSecurityLevel = .none,
        authorized: Bool = false,
        bond: BluetoothAddress? = nil
    ) -> [ATTPDU] {
        var state = ConnectionState(mtu: max(mtu, ATTLimits.defaultMTU), security: security, authorized: authorized, bond: bond)
        var owed: ClosedRange<UInt16>? = nil
        if let bond, let saved = bonds[bond] {
            state.subscriptions = saved.subscriptions
            state.clientFeatures = saved.clientFeatures
            state.changeAware = saved.changeAware
            owed = saved.pendingServiceChange
            bonds[bond]?.pendingServiceChange = nil
        }
        if connections.updateValue(state, forKey: id) == nil {
            connectionOrder.insert(id, at: connectionOrder.firstIndex { $0 > id } ?? connectionOrder.endIndex)
        }
        for (handle, configuration) in state.subscriptions.sorted(by: { $0.key < $1.key }) {
            announce(id, valueHandle: handle, configuration: configuration, cause: .restored)
        }
        if let owed {
            if let indication = serviceChangedPDU(owed, for: state) {
                connections[id]?.serviceChangesUnconfirmed.append(owed)
                return [indication]
            }
            // It no longer takes Service Changed indications: nothing can tell it.
            noteBondedChange(of: id)
        }
        return []
    }

    /// Stops serving a client: its prepare queue and configuration go, except that a
    /// bonded client's configuration is kept under its bond for the next connection,
    /// with the Service Changed ranges it did not confirm still owed.
    public func disconnect(_ id: ConnectionID) {
        guard let state = connections.removeValue(forKey: id) else { return }
        connectionOrder.removeAll { $0 == id }
        if let bond = state.bond {
            var owed = bonds[bond]?.pendingServiceChange
            for range in state.serviceChangesUnconfirmed { owed = Self.merge(owed, range) }
            bonds[bond] = BondedState(
                subscriptions: state.subscriptions, clientFeatures: state.clientFeatures,
                changeAware: state.changeAware, pendingServiceChange: owed)
            bondedClientChanges.insert(bond)
        }
        for (handle, _) in state.subscriptions.sorted(by: { $0.key < $1.key }) {
            announce(id, valueHandle: handle, configuration: [], cause: .disconnected)
        }
    }

    /// The connection's ATT_MTU changed (after Exchange MTU): notifications are cut to it.
    public func setMTU(_ mtu: Int, for id: ConnectionID) {
        connections[id]?.mtu = max(mtu, ATTLimits.defaultMTU)
    }

    /// The link's security changed (encryption started, or pairing finished).
    public func setSecurity(_ security: GATTSecurityLevel, for id: ConnectionID) {
        connections[id]?.security = security
    }

    /// The application authorized (or stopped authorizing) this client, for attributes
    /// that require authorization.
    public func setAuthorized(_ authorized: Bool, for id: ConnectionID) {
        connections[id]?.authorized = authorized
    }

    /// The client bonded during the connection (or the bond was removed, `nil`).
    public func setBond(_ bond: BluetoothAddress?, for id: ConnectionID) {
        connections[id]?.bond = bond
        if let bond { bondedClientChanges.insert(bond) }
    }

    /// The connections being served, in order.
    public var connectedClients: [ConnectionID] { connections.keys.sorted() }

    /// The Client Supported Features a client wrote (`[0]` until it writes).
    public func clientSupportedFeatures(of id: ConnectionID) -> [UInt8]? {
        connections[id]?.clientFeatures
    }

    // MARK: Requests

    /// Answers one PDU a client sent on `bearer`: the response, or `nil` when none is due
    /// (commands, and PDUs that are not requests to a server). `mtu` is the bearer's
    /// ATT_MTU; the unenhanced bearer's is also kept for the connection's notifications,
    /// as `setMTU` does (pushes go out on that bearer).
    ///
    /// Exchange MTU belongs to the bearer; if one arrives here it gets Request Not
    /// Supported. A connection the server was not told about is served with default
    /// state (ATT_MTU 23, no security). A Signed Write Command is ignored: verifying it
    /// needs the peer's CSRK from the Security Manager, which does not exist yet, and
    /// Part F §3.4.5.4 says a command that cannot be processed is ignored.
    public func handle(_ pdu: ATTPDU, from connection: ConnectionID, bearer: Bearer = .unenhanced, mtu: Int) -> ATTPDU? {
        if connections[connection] == nil { connect(connection) }
        let mtu = max(mtu, ATTLimits.defaultMTU)
        if bearer == .unenhanced { connections[connection]?.mtu = mtu } else { bearerOpened(bearer, for: connection) }
        switch admission(of: pdu, from: connection, on: bearer) {
        case .proceed: break
        case .ignore: return nil
        case let .refuse(response): return response
        }
        switch pdu {
        case let .findInformationRequest(r): return findInformation(r, mtu: mtu)
        case let .findByTypeValueRequest(r): return findByTypeValue(r, from: connection, mtu: mtu)
        case let .readByTypeRequest(r): return readByType(r, from: connection, mtu: mtu)
        case let .readRequest(r): return read(r, from: connection, mtu: mtu)
        case let .readBlobRequest(r): return readBlob(r, from: connection, mtu: mtu)
        case let .readMultipleRequest(r): return readMultiple(r, from: connection, mtu: mtu)
        case let .readMultipleVariableRequest(r): return readMultipleVariable(r, from: connection, mtu: mtu)
        case let .readByGroupTypeRequest(r): return readByGroupType(r, from: connection, mtu: mtu)
        case let .writeRequest(r): return write(r, from: connection)
        case let .writeCommand(c):
            writeCommand(c, from: connection)
            return nil
        case .signedWriteCommand:
            // Only its owner holds the signer's key: it checks the signature and hands
            // the command over with `signedWrite(_:from:signerAuthenticated:)`.
            return nil
        case let .prepareWriteRequest(r): return prepareWrite(r, from: connection, mtu: mtu)
        case let .executeWriteRequest(r): return executeWrite(r, from: connection)
        case .exchangeMTURequest:
            return Self.error(.exchangeMTURequest, 0x0000, .requestNotSupported)
        case .errorResponse, .exchangeMTUResponse, .findInformationResponse, .findByTypeValueResponse,
             .readByTypeResponse, .readResponse, .readBlobResponse, .readMultipleResponse,
             .readByGroupTypeResponse, .writeResponse, .prepareWriteResponse, .executeWriteResponse,
             .handleValueNotification, .handleValueIndication, .handleValueConfirmation,
             .readMultipleVariableResponse, .multipleHandleValueNotification:
            return nil
        }
    }

    /// An Error Response.
    static func error(_ request: ATTOpcode, _ handle: UInt16, _ code: ATTErrorCode) -> ATTPDU {
        .errorResponse(ErrorResponse(requestOpcode: request, handle: handle, errorCode: code))
    }

    // MARK: Permissions

    /// Why the client may not read `attribute`, or `nil`.
    ///
    /// The full order for every read request, after Invalid Handle (0x01) for a handle
    /// that names no attribute: Read Not Permitted (0x02), then the security errors in
    /// the order of `AttributePermissions.Access.error(security:authorized:)` —
    /// Insufficient Authorization (0x08), Insufficient Authentication (0x05), Encryption
    /// Key Size Too Short (0x0C), Insufficient Encryption (0x0F). Core 5.4 Vol 3 Part F
    /// §3.4.1.1 leaves the choice among several applicable errors to the implementation;
    /// §3.4.4.3 lists the security errors in that order. Read Not Permitted goes first
    /// because no change of link security can make such an attribute readable, so
    /// answering with a security error would send the client pairing for nothing.
    func readError(_ attribute: Attribute, _ state: ConnectionState) -> ATTErrorCode? {
        guard let access = attribute.permissions.read else { return .readNotPermitted }
        return access.error(security: state.security, authorized: state.authorized)
    }

    /// Why the client may not write `attribute`, or `nil`: Write Not Permitted (0x03),
    /// then the security errors, in the order `readError` gives for reads.
    func writeError(_ attribute: Attribute, _ state: ConnectionState) -> ATTErrorCode? {
        guard let access = attribute.permissions.write else { return .writeNotPermitted }
        return access.error(security: state.security, authorized: state.authorized)
    }

    /// The state of a connection `handle(_:from:bearer:mtu:)` has made sure exists.
    func state(_ id: ConnectionID) -> ConnectionState {
        connections[id] ?? ConnectionState(mtu: ATTLimits.defaultMTU, security: .none, authorized: false)
    }
}
