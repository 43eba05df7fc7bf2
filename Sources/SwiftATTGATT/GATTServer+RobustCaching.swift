import SwiftATTPDU

// Robust Caching, Core 5.4 Vol 3 Part G §2.5.2.1. After the database changes, a client
// that set the Robust Caching bit of Client Supported Features is "change-unaware": its
// first request naming handles on each bearer gets Database Out Of Sync, its commands are
// dropped and it gets no notifications or indications (but Service Changed) until it is
// aware again — with the request that follows a read of the Database Hash, and, while it
// uses only the unenhanced bearer, after confirming Service Changed or with the request
// that follows a Database Out Of Sync answer. With Enhanced bearers open those two no
// longer tell: a request on another bearer may have left before the client saw the
// answer or the indication. Clients that did not opt in are served as always (Zephyr
// draws the same line).
extension GATTServer {
    enum Admission {
        case proceed
        case ignore
        case refuse(ATTPDU)
    }

    func admission(of pdu: ATTPDU, from id: ConnectionID, on bearer: Bearer) -> Admission {
        let s = state(id)
        guard s.usesRobustCaching, !s.changeAware else { return .proceed }
        switch pdu.opcode.kind {
        case .command: return .ignore
        case .request: break
        default: return .proceed
        }
        if s.readHashWhileUnaware || (s.usesOneBearer && !s.outOfSyncSent.isEmpty) {
            becomeChangeAware(id)
            return .proceed
        }
        // Once per bearer: later requests on it are served, the client still unaware.
        guard let handle = Self.handleOfOperation(pdu), !s.outOfSyncSent.contains(bearer) else { return .proceed }
        connections[id]?.outOfSyncSent.insert(bearer)
        return .refuse(Self.error(pdu.opcode, handle, .databaseOutOfSync))
    }

    /// The handle a request operates at, when it is one §2.5.2.1 refuses: a request at
    /// an attribute handle or a list of them, or a Read By Type for a type other than
    /// «Include» or «Characteristic» over less than the whole range (a Read Using
    /// Characteristic UUID of the Database Hash over 0x0001–0xFFFF passes, and that is
    /// how a client re-synchronises). Discovery by range and Execute Write pass.
    static func handleOfOperation(_ pdu: ATTPDU) -> UInt16? {
        switch pdu {
        case let .readRequest(r): return r.handle
        case let .readBlobRequest(r): return r.handle
        case let .readMultipleRequest(r): return r.setOfHandles.first
        case let .readMultipleVariableRequest(r): return r.setOfHandles.first
        case let .writeRequest(r): return r.handle
        case let .prepareWriteRequest(r): return r.handle
        case let .readByTypeRequest(r):
            let discovery = r.attributeType == GATTAttributeType.include || r.attributeType == GATTAttributeType.characteristic
            let wholeRange = r.startingHandle == 0x0001 && r.endingHandle == 0xFFFF
            return discovery || wholeRange ? nil : r.startingHandle
        default: return nil
        }
    }
}
