import SwiftATTCore
import SwiftATTPDU
import SwiftATTGATT

/// The ATT side of one connection, on the loop thread: its bearer and the GATT server's
/// view of it. Tokens identify our outstanding requests and indications.
final class AttributeLink {
    /// The largest ATT PDU this host accepts: 517 lets a 512-octet value travel in one
    /// notification, Read Response or Write Request.
    static let receiveMTU = 517
    /// How many of our requests, and separately indications, may wait in the bearer
    /// behind the outstanding one. `Peripheral.updateQueueCapacity` is derived from it:
    /// at 128 the gate lets a stream hand the loop 64 values a turn, so each turn's fixed
    /// costs (its `poll`, the application's wake-up for `.readyToUpdate`) are shared by
    /// that many values (Documentation/Benchmarks.md, "The whole host", has the
    /// figures).
    static let bearerQueueLimit = 128

    let handle: UInt16
    /// Touched two to four times per notification, so not checked for exclusive access
    /// at run time: only the loop thread touches a link, and the bearer's own methods,
    /// the only code that runs while it is being mutated, cannot reach the link.
    @exclusivity(unchecked) var bearer: ATTBearer
    /// Our GATT client's procedures and listeners on this link.
    let client = GATTClientSession()
    /// The peer's identity address when it is bonded: the GATT server keeps its
    /// configuration under it.
    var bond: BluetoothAddress?
    /// The Enhanced ATT bearers open on the link, in the order they opened.
    var enhanced: [EnhancedBearer] = []
    /// The link is going down: no procedure starts on any of its bearers any more.
    var detaching = false

    init(handle: UInt16, receiveMTU: Int, transactionTimeout: Duration) {
        self.handle = handle
        bearer = ATTBearer(receiveMTU: receiveMTU, transactionTimeout: transactionTimeout, queueLimit: Self.bearerQueueLimit)
    }

    var connectionID: GATTServer.ConnectionID { GATTServer.ConnectionID(handle) }

    /// ATT_MTU of the bearer `route` names.
    func mtu(_ route: BearerRoute) -> Int {
        switch route {
        case .unenhanced: return bearer.mtu
        case let .enhanced(enhanced): return enhanced.bearer.mtu
        }
    }

    /// Runs `body` on the bearer `route` names, where it is stored.
    @inline(__always)
    func withBearer<Result, Failure: Error>(_ route: BearerRoute, _ body: (inout ATTBearer) throws(Failure) -> Result) throws(Failure) -> Result {
        switch route {
        case .unenhanced: return try body(&bearer)
        case let .enhanced(enhanced): return try body(&enhanced.bearer)
        }
    }

    /// Runs `body` on the bearer where it is stored. Calling a method on `link.bearer`
    /// copies the whole struct out of the object first (its queues and state retained,
    /// then released again); an `inout` access hands the method the stored bearer's
    /// address instead.
    @inline(__always)
    func withBearer<Result, Failure: Error>(_ body: (inout ATTBearer) throws(Failure) -> Result) throws(Failure) -> Result {
        try body(&bearer)
    }
}
