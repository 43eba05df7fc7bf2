import ATT
import GATT

/// The ATT side of one connection, on the loop thread: its bearer and the GATT server's
/// view of it. Tokens identify our outstanding requests and indications.
final class AttributeLink {
    let handle: UInt16
    var bearer: ATTBearer<Int>

    init(handle: UInt16, receiveMTU: Int) {
        self.handle = handle
        bearer = ATTBearer(receiveMTU: receiveMTU)
    }

    var connectionID: GATTServer.ConnectionID { GATTServer.ConnectionID(handle) }
}
