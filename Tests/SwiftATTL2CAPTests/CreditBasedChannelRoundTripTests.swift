import SwiftATTCore
import SwiftATTL2CAP
import Testing
import TestSupport

/// Two credit-based channels wired back to back, as two hosts' ends of one channel:
/// random SDUs each way, the reader consuming late, under MTU, MPS and credit settings
/// from the smallest the spec allows to the largest. Everything arrives intact and in
/// order; no K-frame is over the MPS; credits stay within 0–65535 and the window.
@Suite struct CreditBasedChannelRoundTripTests {
    struct Setting: Sendable, CustomTestStringConvertible {
        var seed: UInt64
        var mtu: UInt16
        var mps: UInt16
        var window: UInt16
        var batch: UInt16
        var sdus: Int

        var testDescription: String { "seed \(seed): MTU \(mtu), MPS \(mps), window \(window)/\(batch)" }
    }

    static let settings: [Setting] = [
        Setting(seed: 1, mtu: 23, mps: 23, window: 1, batch: 1, sdus: 300),
        Setting(seed: 2, mtu: 512, mps: 23, window: 1, batch: 1, sdus: 100),
        Setting(seed: 3, mtu: 512, mps: 23, window: 3, batch: 2, sdus: 200),
        Setting(seed: 4, mtu: 2048, mps: 247, window: 10, batch: 5, sdus: 200),
        Setting(seed: 5, mtu: 65535, mps: 65533, window: 2, batch: 1, sdus: 20),
        Setting(seed: 6, mtu: 65535, mps: 251, window: 65535, batch: 32767, sdus: 20),
        Setting(seed: 7, mtu: 100, mps: 100, window: 64, batch: 64, sdus: 500),
        Setting(seed: 8, mtu: 1000, mps: 37, window: 7, batch: 3, sdus: 300),
    ]

    /// One end and what the application on it has queued and read.
    struct End {
        var channel: CreditBasedChannel
        var toSend: [[UInt8]] = []
        var sent = 0
        var received: [[UInt8]] = []
        var unread = 0
    }

    @Test(arguments: settings)
    func backToBack(setting: Setting) throws {
        var random = SplitMix64(seed: setting.seed)
        // The two ends differ: one side's receive settings are the setting, the other's
        // are drawn, so MTU and MPS differ per direction.
        let otherMTU = UInt16.random(in: 23...2048, using: &random)
        let otherMPS = UInt16.random(in: 23...300, using: &random)
        let otherWindow = UInt16.random(in: 1...20, using: &random)
        func configuration(local: UInt16, peer: UInt16, mtu: UInt16, mps: UInt16, window: UInt16, batch: UInt16,
                           peerMTU: UInt16, peerMPS: UInt16, peerWindow: UInt16) -> CreditBasedChannelConfiguration {
            CreditBasedChannelConfiguration(localCID: local, peerCID: peer, mtu: mtu, mps: mps, peerMTU: peerMTU,
                                            peerMPS: peerMPS, peerInitialCredits: peerWindow,
                                            creditPolicy: CreditReturnPolicy(window: window, batch: batch),
                                            sendQueueLimit: .init(sdus: 4, octets: 4096))
        }
        var a = End(channel: try CreditBasedChannel(configuration(
            local: 0x40, peer: 0x41, mtu: setting.mtu, mps: setting.mps, window: setting.window, batch: setting.batch,
            peerMTU: otherMTU, peerMPS: otherMPS, peerWindow: otherWindow)))
        var b = End(channel: try CreditBasedChannel(configuration(
            local: 0x41, peer: 0x40, mtu: otherMTU, mps: otherMPS, window: otherWindow, batch: max(1, otherWindow / 3),
            peerMTU: setting.mtu, peerMPS: setting.mps, peerWindow: setting.window)))
        func sdu(upTo mtu: UInt16) -> [UInt8] {
            // Mostly short, sometimes the MTU exactly, sometimes empty.
            let length: Int
            switch Int.random(in: 0..<10, using: &random) {
            case 0: length = Int(mtu)
            case 1: length = 0
            case 2...4: length = Int.random(in: 0...Int(mtu), using: &random)
            default: length = Int.random(in: 0...min(Int(mtu), 64), using: &random)
            }
            return (0..<length).map { _ in UInt8.random(in: 0...255, using: &random) }
        }
        a.toSend = (0..<setting.sdus).map { _ in sdu(upTo: otherMTU) }
        b.toSend = (0..<setting.sdus / 2).map { _ in sdu(upTo: setting.mtu) }

        var steps = 0
        while a.received.count < b.toSend.count || b.received.count < a.toSend.count {
            steps += 1
            try #require(steps < 1_000_000, "no progress: \(a.received.count)/\(b.toSend.count), \(b.received.count)/\(a.toSend.count)")
            // Each side, in an order the generator picks: queue, send a few frames, read.
            for _ in 0..<2 {
                if Bool.random(using: &random) {
                    try Self.step(&a, to: &b, random: &random)
                } else {
                    try Self.step(&b, to: &a, random: &random)
                }
            }
        }
        #expect(a.received == b.toSend)
        #expect(b.received == a.toSend)
        for end in [a, b] {
            #expect(end.channel.isOpen && end.channel.queuedSDUs == 0 && end.channel.reassemblyOctets == 0)
        }
    }

    /// One turn of `from`: queue what fits, hand a few K-frames to `to`, read or not,
    /// and pass the signaling both ways.
    static func step(_ from: inout End, to: inout End, random: inout SplitMix64) throws {
        while from.sent < from.toSend.count, from.channel.hasRoom(forSDUOf: from.toSend[from.sent].count) {
            try from.channel.send(from.toSend[from.sent][...])
            from.sent += 1
        }
        for _ in 0..<Int.random(in: 0...4, using: &random) {
            guard let frame = from.channel.nextFrame() else { break }
            let bytes = frame.basicFrame()
            #expect(Int(bytes[0]) | Int(bytes[1]) << 8 == bytes.count - 4)
            #expect(UInt16(bytes[2]) | UInt16(bytes[3]) << 8 == to.channel.configuration.localCID)
            #expect(frame.encodedLength <= Int(from.channel.configuration.peerMPS))
            if let sdu = try to.channel.receive(bytes[4...]) {
                #expect(sdu.count <= Int(to.channel.configuration.mtu))
                to.received.append(Array(sdu))
                to.unread += 1
            }
        }
        // The reader is slow: it reads its SDUs now and then.
        if to.unread > 0, Int.random(in: 0..<3, using: &random) == 0 {
            for _ in 0..<Int.random(in: 1...to.unread, using: &random) {
                let consumed = to.channel.consumed()
                #expect(consumed)
                to.unread -= 1
            }
        }
        while let action = to.channel.nextAction() {
            guard case let .grantCredits(credits) = action else {
                Issue.record("unexpected \(action)")
                return
            }
            try from.channel.peerGaveCredits(credits)
        }
        for end in [from, to] { check(end.channel) }
    }

    static func check(_ channel: CreditBasedChannel) {
        let window = Int(channel.configuration.creditPolicy.window)
        #expect((0...65535).contains(channel.sendCredits))
        #expect(channel.peerCredits >= 0 && channel.heldCredits >= 0 && channel.creditsToReturn >= 0)
        #expect(channel.peerCredits + channel.heldCredits + channel.creditsToReturn == window)
        #expect(channel.queuedSDUs <= channel.configuration.sendQueueLimit.sdus)
    }
}
