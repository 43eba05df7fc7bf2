import SwiftATTHost
import SwiftATTL2CAP
import SwiftATTTransport

/// What `swift-att l2cap` does with its one channel: standard input into it and its SDUs
/// onto standard output, byte for byte (`pipe`), or a one-way transfer measured (`--bench`).
///
/// Three tasks race — the channel's reader, standard input's writer into the channel,
/// and the signal watcher — and the first to end decides, in one place (`pipe`):
/// standard input at its end flushes and closes the channel, and the reader then ends
/// cleanly; the peer closing ends the reader, everything it sent already written; a
/// signal closes the channel. A credit-based channel has no half-close: once this side
/// closes, nothing more is received (as with netcat without half-close).
struct ChannelPipe {
    let channel: L2CAPChannel
    let options: L2CAPOptions
    let inputs: CentralInputs

    /// How one of the racing tasks ended.
    enum Ending: Sendable {
        /// The SDU stream ended: cleanly (nil) when either side closed the channel.
        case received(L2CAPChannelError?)
        case outputFailed(Errno)
        /// Standard input ended (or the bench's octets went), everything sent and flushed.
        case sent
        /// The channel ended under the writer: the reader says why.
        case sendStopped
        case inputFailed(Errno)
        case signal(Int32)
        /// The task was cancelled, or the signals stopped coming.
        case quiet
    }

    func run() async throws(CommandError) -> Int32 {
        Output.progress("channel open: \(channel.psm), \(channel.mode == .leCreditBased ? "LE" : "Enhanced") Credit Based, "
                        + "MTU \(channel.mtu) here / \(channel.peerMTU) there, MPS \(channel.mps) / \(channel.peerMPS), "
                        + "credits \(channel.initialCredits) / \(channel.peerInitialCredits)"
                        + (options.work == .pipe ? "; Ctrl-C closes" : ""))
        let bench = ChannelBench(channel: channel, sduLength: sduLength)
        let outcome: Result<Int32, CommandError> = await withTaskGroup(of: Ending.self) { group in
            switch options.work {
            case .pipe:
                let streams = StandardStreams()
                group.addTask { await receive(into: streams) }
                if !options.receiveOnly { group.addTask { await send(from: streams) } }
            case .receiveBench:
                group.addTask { await bench.receive(measuring: true) }
            case let .sendBench(octets):
                // What the peer sends meanwhile is read (its credits go back) and dropped.
                group.addTask { await bench.receive(measuring: false) }
                group.addTask { await bench.send(octets) }
            }
            let signals = inputs.subscribe()
            group.addTask {
                for await input in signals {
                    if case let .signal(signo) = input { return .signal(signo) }
                }
                return .quiet
            }
            var closing = false
            while let ending = await group.next() {
                switch ending {
                case .received(nil):
                    if !closing { Output.progress("the peer closed the channel") }
                    group.cancelAll()
                    return await finish(bench)
                case let .received(error?):
                    group.cancelAll()
                    return .failure(L2CAPSession.failure("the channel", error))
                case .sent:
                    // The reader ends cleanly once the close is done.
                    closing = true
                    if options.work == .pipe { Output.progress("end of standard input: closing the channel") }
                    await channel.close()
                case .sendStopped, .quiet:
                    continue
                case let .inputFailed(errno):
                    await channel.close()
                    group.cancelAll()
                    return .failure(.input("reading standard input: \(errno)"))
                case let .outputFailed(errno):
                    await channel.close()
                    group.cancelAll()
                    return .failure(.input("writing standard output: \(errno)"))
                case let .signal(signo):
                    Output.progress("\(L2CAPSession.signalName(signo)): closing the channel")
                    await channel.close()
                    group.cancelAll()
                    Output.progress("stopped (\(L2CAPSession.signalName(signo)))")
                    return .success(0)
                }
            }
            return .failure(.failure("the channel's tasks ended without an outcome"))
        }
        return try outcome.get()
    }

    /// The longest SDU this side sends: `--sdu`, within the peer's MTU.
    private var sduLength: Int { min(options.sdu ?? channel.peerMTU, channel.peerMTU) }

    /// Standard input into the channel, one read per SDU, until its end.
    private func send(from streams: StandardStreams) async -> Ending {
        while true {
            switch await streams.read(upTo: sduLength) {
            case let .bytes(chunk):
                do {
                    try await channel.send(chunk)
                } catch {
                    return .sendStopped
                }
            case .end:
                await channel.flush()
                return .sent
            case let .failed(errno):
                return .inputFailed(errno)
            case .cancelled:
                return .quiet
            }
        }
    }

    /// The channel's SDUs onto standard output, in order, until the channel ends.
    private func receive(into streams: StandardStreams) async -> Ending {
        do {
            for try await sdu in channel.sdus {
                switch await streams.write(sdu) {
                case .done: continue
                case let .failed(errno): return .outputFailed(errno)
                case .cancelled: return .quiet
                }
            }
            return .received(nil)
        } catch {
            return .received(error)
        }
    }

    /// The end of a clean run: the bench's report on standard output, or what the pipe
    /// carried on standard error. A bench the peer cut short is the peer's failure.
    private func finish(_ bench: ChannelBench) async -> Result<Int32, CommandError> {
        let statistics = await channel.statistics ?? L2CAPChannelStatistics()
        switch options.work {
        case .pipe:
            Output.progress("sent \(EventReport.bytes(statistics.sentOctets)), received \(EventReport.bytes(statistics.receivedOctets))")
        case .receiveBench:
            bench.report(statistics, sending: false)?.emit(json: options.json)
        case let .sendBench(octets):
            guard let report = bench.report(statistics, sending: true), report.octets == octets else {
                return .failure(.peer("the peer closed the channel after \(statistics.sentOctets) of \(String(count: octets, "octet"))"))
            }
            report.emit(json: options.json)
        }
        return .success(0)
    }
}
