import SwiftATTPDU

extension ATTBearer {
    /// What the host does after an event: perform the actions in order.
    ///
    /// Order matters where the spec says so: a `send` before an `mtuChanged` is the
    /// Exchange MTU Response that must leave under the old ATT_MTU, and every `send` of one
    /// call goes out before any `send` of the next. Values handed up (`notification`,
    /// `indication`, the payloads inside `serve` and `response`) are `ArraySlice`s of the
    /// inbound PDU passed to `receive`: safe to keep and to send across threads, but
    /// keeping one keeps that whole PDU's buffer alive, so copy (`Array(value)`) what is
    /// stored for long.
    public enum Action: Sendable {
        /// A complete ATT PDU to transmit on L2CAP channel 0x0004.
        case send([UInt8])
        /// A request or command from the peer for the GATT server. For a request
        /// (`pdu.opcode.kind == .request`) the host must call `respond(_:)` next; a
        /// command (Write Command, Signed Write Command) gets no answer.
        case serve(ATTPDU)
        /// The peer answered our request: its response, or an Error Response naming it.
        case response(Token, ATTPDU)
        /// Our request failed without an answer: timeout, malformed answer, close.
        case requestFailed(Token, ATTBearerError)
        /// A value the peer notified (one action per handle of a Multiple Handle Value
        /// Notification).
        case notification(handle: UInt16, value: ArraySlice<UInt8>)
        /// A value the peer indicated; the Handle Value Confirmation is the `send` that
        /// follows this action.
        case indication(handle: UInt16, value: ArraySlice<UInt8>)
        /// The peer confirmed our indication.
        case indicationConfirmed(Token)
        /// Our indication was not confirmed: timeout, malformed confirmation, close.
        case indicationFailed(Token, ATTBearerError)
        /// ATT_MTU changed to this value after an Exchange MTU in either direction.
        case mtuChanged(Int)
        /// The bearer closed itself after a transaction timeout (Core 5.4 Vol 3 Part F
        /// §3.3.3): it sends nothing more. Disconnect, or stop using ATT on this link.
        case closed(ATTBearerError)
        /// An inbound PDU was ignored, and why: for the log; nothing to do.
        case dropped(ATTBearerError)
    }
}

extension ATTBearer.Action: Equatable {}
extension ATTBearer.Action: Hashable {}
