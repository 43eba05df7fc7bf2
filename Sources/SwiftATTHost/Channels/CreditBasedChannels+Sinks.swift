import SwiftATTL2CAP

/// Channels the host itself reads and writes (`ChannelSink`): the Enhanced ATT bearers.
extension CreditBasedChannels {
    /// Hands the channel's SDUs to `sink` from now on, starting with any that arrived
    /// between its opening and this call. False when the channel is gone or has ended.
    @discardableResult
    func attach(_ sink: ChannelSink, to key: ChannelKey) -> Bool {
        guard let slot = slot(key), slot.machine.isOpen else { return false }
        slot.sink = sink
        var early = slot.staged
        slot.staged.removeAll()
        staged.removeAll { $0 === slot }
        early.insert(contentsOf: slot.inbox.takeAll(), at: 0)
        for sdu in early where slot.sink != nil {
            sink.receive(sdu[...])
            _ = slot.machine.consumed()
        }
        serviceActions(slot)
        return true
    }

    /// Queues `sdu` on a host-read channel and sends what credits allow. False when the
    /// channel is gone or refuses it (ended, longer than the peer's MTU).
    func send(_ sdu: [UInt8], on key: ChannelKey) -> Bool {
        guard let slot = slot(key), slot.machine.isOpen, !slot.closeRequested else { return false }
        do throws(CreditBasedChannelError) {
            try slot.machine.send(sdu[...])
        } catch {
            return false
        }
        slot.statistics.sentSDUs += 1
        slot.statistics.sentOctets += sdu.count
        pump(slot)
        return true
    }

    /// The sizes the channel runs with now: this host's MTU and the peer's.
    func mtus(of key: ChannelKey) -> (mtu: Int, peerMTU: Int)? {
        guard let slot = slot(key) else { return nil }
        return (Int(slot.machine.configuration.mtu), Int(slot.machine.configuration.peerMTU))
    }
}
