/// A user of a credit-based channel inside the host — the Enhanced ATT bearers — rather
/// than an application task: it is handed each SDU on the loop as it completes (a view of
/// the received frame, valid during the call), the SDU's credit goes back at once, and
/// it hears when the channel's sizes change or the channel ends.
///
/// An application's channel is read at the application's pace, so its credits wait for
/// the reader; the host reads its own at once, so its window never closes for want of a
/// reader. Loop-confined.
final class ChannelSink {
    let receive: (ArraySlice<UInt8>) -> Void
    let resized: () -> Void
    let ended: (L2CAPChannelError?) -> Void

    init(receive: @escaping (ArraySlice<UInt8>) -> Void, resized: @escaping () -> Void,
         ended: @escaping (L2CAPChannelError?) -> Void) {
        self.receive = receive
        self.resized = resized
        self.ended = ended
    }
}
