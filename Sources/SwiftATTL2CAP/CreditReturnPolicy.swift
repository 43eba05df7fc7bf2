/// How a credit-based channel grants credits back to the peer: the receive window, and
/// how much of it to return at once. Core 5.4 Vol 3 Part A §10.1 leaves both to the host.
///
/// The window is the number of K-frames the peer may have in flight or waiting in this
/// host at any time; it is the initial credit count of the connection response or
/// request, and the channel never grants beyond it (so never beyond 65535). A credit
/// comes back when the application has consumed the SDU its K-frame carried — not when
/// the frame arrived — so a reader that stops reading stops the peer within one window,
/// and what the host holds for it stays bounded. The one exception keeps a channel from
/// stalling: when the peer has spent every credit in the middle of an SDU, the credits
/// of that SDU's frames come back at once, or an SDU longer than the window could never
/// complete.
///
/// Credits go back in batches of `batch` rather than one Flow Control Credit Indication
/// per K-frame: each indication is a signaling PDU on the same link, and returning half
/// the window at a time keeps the peer sending without doubling the link's traffic in
/// small PDUs. A smaller batch lowers latency for a peer with a small window; the peer
/// also gets whatever is ready whenever it has run out, so a batch never holds it up.
public struct CreditReturnPolicy: Sendable, Hashable {
    /// The credits granted when the channel opens, and the most it is ever owed: 1–65535.
    public var window: UInt16
    /// Credits are returned once this many are ready (or the peer has none left): 1–`window`.
    public var batch: UInt16

    /// A window of `window` K-frames, returned half a window at a time.
    public init(window: UInt16 = 64, batch: UInt16? = nil) {
        self.window = window
        self.batch = batch ?? max(1, window / 2)
    }
}
