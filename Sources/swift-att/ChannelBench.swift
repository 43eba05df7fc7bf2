import SwiftATTHost
import SwiftATTJSON
import SwiftATTL2CAP
import Synchronization

/// `swift-att l2cap … --bench`: a one-way transfer over the channel, timed. The sender
/// (`connect --bench [BYTES]`) sends a pattern (byte i of the stream is i mod 256) in
/// SDUs as long as the peer takes, and times it from the first `send` until `flush` says
/// the controller has sent the last K-frame; the receiver (`listen --bench`) reads and
/// drops, and times it from the channel's opening to the last SDU.
final class ChannelBench: Sendable {
    let channel: L2CAPChannel
    let sduLength: Int
    private let timing = Mutex(Timing())

    private struct Timing {
        var start: ContinuousClock.Instant?
        var end: ContinuousClock.Instant?
        var octets = 0
        var sdus = 0
        /// The sender's octets all went and were flushed.
        var sent = false
    }

    init(channel: L2CAPChannel, sduLength: Int) {
        self.channel = channel
        self.sduLength = sduLength
    }

    /// Sends `octets` of the pattern, then waits until they have left.
    func send(_ octets: Int) async -> ChannelPipe.Ending {
        let pattern = (0..<(sduLength + 256)).map { UInt8(truncatingIfNeeded: $0) }
        timing.withLock { $0.start = .now }
        var offset = 0
        while offset < octets {
            let length = min(sduLength, octets - offset)
            let phase = offset % 256
            do {
                try await channel.send(Array(pattern[phase..<(phase + length)]))
            } catch {
                return .sendStopped
            }
            offset += length
            timing.withLock {
                $0.octets = offset
                $0.sdus += 1
            }
        }
        await channel.flush()
        timing.withLock {
            $0.end = .now
            $0.sent = true
        }
        return .sent
    }

    /// Reads the channel's SDUs until it ends, counting them when `measuring`.
    func receive(measuring: Bool) async -> ChannelPipe.Ending {
        if measuring { timing.withLock { $0.start = .now } }
        do {
            for try await sdu in channel.sdus where measuring {
                timing.withLock {
                    $0.octets += sdu.count
                    $0.sdus += 1
                    $0.end = .now
                }
            }
            return .received(nil)
        } catch {
            return .received(error)
        }
    }

    /// The figures; nil for a sender whose octets did not all go.
    func report(_ statistics: L2CAPChannelStatistics, sending: Bool) -> ChannelBenchReport? {
        let timing = self.timing.withLock { $0 }
        if sending && !timing.sent { return nil }
        let start = timing.start ?? .now
        let elapsed = (timing.end ?? start) - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return ChannelBenchReport(
            sending: sending, octets: timing.octets, seconds: seconds, sdus: timing.sdus, sduLength: sduLength,
            frames: sending ? statistics.sentFrames : statistics.receivedFrames, creditStalls: statistics.creditStalls,
            credits: sending ? statistics.creditsReceived : statistics.creditsGranted,
            mode: channel.mode, mtu: channel.mtu, mps: channel.mps, peerMTU: channel.peerMTU, peerMPS: channel.peerMPS)
    }
}

/// What `--bench` prints when the transfer is done: one line, or one JSON object.
struct ChannelBenchReport {
    var sending: Bool
    var octets: Int
    var seconds: Double
    var sdus: Int
    /// The longest SDU the sender sent.
    var sduLength: Int
    /// K-frames sent (sender) or received (receiver).
    var frames: Int
    /// Times a send waited for the peer's credits.
    var creditStalls: Int
    /// Credits the peer granted after the opening (sender), or this side granted (receiver).
    var credits: Int
    var mode: CreditBasedFlowControlMode
    var mtu: Int
    var mps: Int
    var peerMTU: Int
    var peerMPS: Int

    /// Thousands of octets per second; 0 when no time passed.
    var kilobytesPerSecond: Double { seconds > 0 ? Double(octets) / seconds / 1000 : 0 }

    var text: String {
        let rate = "\(String(kilobytesPerSecond, decimals: 1)) kB/s"
        let timed = "\(String(count: octets, "octet")) in \(String(seconds, decimals: 3)) s: \(rate)"
        let modeWord = mode == .leCreditBased ? "LE" : "Enhanced"
        if sending {
            return "sent \(timed); \(String(count: sdus, "SDU")) of up to \(String(count: sduLength, "octet")) in \(String(count: frames, "K-frame")) "
                + "(peer's MPS \(peerMPS), \(modeWord)), \(String(count: creditStalls, "credit stall")), \(String(count: credits, "credit")) received"
        }
        return "received \(timed); \(String(count: sdus, "SDU")) in \(String(count: frames, "K-frame")) (MPS \(mps), \(modeWord)), "
            + "\(String(count: credits, "credit")) granted"
    }

    var json: JSONValue {
        .object([
            JSONMember("event", "bench"), JSONMember("direction", .string(sending ? "sent" : "received")),
            JSONMember("octets", .integer(octets)), JSONMember("seconds", .double(seconds)),
            JSONMember("kBps", .double(kilobytesPerSecond)), JSONMember("sdus", .integer(sdus)),
            JSONMember("sduLength", sending ? .integer(sduLength) : .null),
            JSONMember("frames", .integer(frames)), JSONMember("creditStalls", .integer(creditStalls)),
            JSONMember(sending ? "creditsReceived" : "creditsGranted", .integer(credits)),
            JSONMember("mode", .string(mode == .leCreditBased ? "le" : "enhanced")),
            JSONMember("mtu", .integer(mtu)), JSONMember("mps", .integer(mps)),
            JSONMember("peerMTU", .integer(peerMTU)), JSONMember("peerMPS", .integer(peerMPS)),
        ])
    }

    /// On standard output: it is the command's result.
    func emit(json asJSON: Bool) {
        Output.print(asJSON ? json.serialized() : text)
        Output.flush()
    }
}
