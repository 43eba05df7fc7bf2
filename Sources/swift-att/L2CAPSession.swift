#if canImport(Glibc)
import Glibc
#endif
import SwiftATTGATT
import SwiftATTHost
import SwiftATTL2CAP
import SwiftATTProfiles

/// One run of `swift-att l2cap`: brings up the host in its role, gets one channel —
/// accepted on the SPSM (`listen`) or opened to the device's (`connect`) — hands it to
/// `ChannelPipe`, and always closes the host again (the link ends with it) and lets the
/// bond file go.
///
/// Standard output carries the channel's bytes (or the bench's report); everything said
/// to people goes to standard error. SIGINT or SIGTERM stops the command wherever it
/// is: a channel open is closed gracefully first.
enum L2CAPSession {
    static func run(_ options: L2CAPOptions) async throws(CommandError) -> Int32 {
        // A reader of standard output that went away is an error to report (EPIPE), not
        // a signal that ends the process before the channel is closed.
        signal(SIGPIPE, SIG_IGN)
        let inputs = CentralInputs.start(readingLines: false)
        switch options.role {
        case .listen: return try await listen(options, inputs: inputs)
        case .connect: return try await connect(options, inputs: inputs)
        }
    }

    // MARK: connect

    private static func connect(_ options: L2CAPOptions, inputs: CentralInputs) async throws(CommandError) -> Int32 {
        let host = CentralSession.Host(command: options.command, transport: options.transport, capture: options.capture,
                                       bonds: options.bonds, pairing: options.pairing)
        // Never JSON here: standard output carries the channel (or the bench's one report).
        let report = EventReport(json: false, names: CentralSession.names)
        let search = CentralConnector.Search(command: options.command, target: options.device, scanTimeout: options.scanTimeout,
                                             security: options.linkSecurity, exchangeMTU: false)
        return try await CentralSession.withCentral(host, report: report, terminal: nil) { central throws(CommandError) in
            let opened = try await unlessSignalled(inputs, abort: { await central.close() }) { () throws(CommandError) in
                let peer = try await CentralConnector(search: search, central: central).connect(defaultServices: [], report: report)
                Output.progress("opening a channel to \(options.psm) (\(options.mode))…")
                do throws(L2CAPChannelError) {
                    return try await peer.openChannel(psm: options.psm, mode: options.mode, parameters: options.parameters)
                } catch {
                    throw failure("opening a channel to \(options.psm)", error)
                }
            }
            guard case let .finished(channel) = opened else { return stopped(opened) }
            return try await ChannelPipe(channel: channel, options: options, inputs: inputs).run()
        }
    }

    // MARK: listen

    private static func listen(_ options: L2CAPOptions, inputs: CentralInputs) async throws(CommandError) -> Int32 {
        let database: GATTDatabase
        let advertisement: ProfileAdvertisement
        do {
            database = try GATTDatabase(services: [], genericAccess: GATTGenericAccess(deviceName: options.name))
            advertisement = try ProfileAdvertisement(name: options.name, services: [])
        } catch {
            throw .usage("\(options.command): --name '\(options.name)' cannot be served or advertised: \(error)")
        }
        try ControllerSession.beforeOpening(options.transport)
        let bonds = CommandBondFile(path: options.bonds)
        let peripheral: Peripheral
        do {
            // One central at a time: the one that opens the channel is the one served.
            peripheral = try await Peripheral.start(transport: options.transport, database: database, capturePath: options.capture,
                                                    readvertising: .upTo(connections: 1), storage: bonds)
        } catch {
            throw bonds.commandError(error)
        }
        let watching = watch(peripheral)
        let result: Result<Int32, CommandError>
        do throws(CommandError) {
            result = .success(try await serve(options, peripheral: peripheral, advertisement: advertisement, inputs: inputs))
        } catch {
            result = .failure(error)
        }
        await peripheral.close()
        watching.forEach { $0.cancel() }
        bonds.close()
        return try result.get()
    }

    /// Advertises, accepts one channel on the SPSM and runs the pipe or bench on it.
    private static func serve(
        _ options: L2CAPOptions, peripheral: Peripheral, advertisement: ProfileAdvertisement, inputs: CentralInputs
    ) async throws(CommandError) -> Int32 {
        let delegate = TerminalPairingDelegate(options: options.pairing, terminal: nil, json: false)
        try await PairingOptions.configure(peripheral.controller, options.pairing.securityConfiguration, delegate: delegate)
        let listener: L2CAPListener
        do {
            listener = try await peripheral.controller.listen(on: options.psm, parameters: options.parameters)
        } catch {
            throw failure("listening on \(options.psm)", error)
        }
        defer { listener.stop() }
        do {
            try await peripheral.startAdvertising(data: advertisement.data, scanResponse: advertisement.scanResponse)
        } catch {
            throw .failure("advertising: \(error)")
        }
        let p = options.parameters
        let security = p.security == .open ? "" : ", links \(CentralCommand.securityWords.first { $0.access == p.security }?.words[0] ?? "secured") or better"
        Output.progress("listening on \(options.psm) (MTU \(p.mtu), MPS \(p.mps), \(String(count: Int(p.credits), "credit"))\(security)); "
                        + "advertising \(EventReport.quoted(options.name)) as \(peripheral.info.randomAddress) on \(options.transport)")
        let accepted = try await unlessSignalled(inputs, abort: { listener.stop() }) { () throws(CommandError) -> L2CAPChannel in
            for await channel in listener { return channel }
            throw .failure("the controller stopped before a channel was opened")
        }
        guard case let .finished(channel) = accepted else { return stopped(accepted) }
        // The one channel is served; later requests are refused (SPSM not supported).
        listener.stop()
        try? await peripheral.stopAdvertising()
        return try await ChannelPipe(channel: channel, options: options, inputs: inputs).run()
    }

    /// Connections, disconnections and changes of the links' security, on standard error.
    private static func watch(_ peripheral: Peripheral) -> [Task<Void, Never>] {
        let events = peripheral.events()
        let securityEvents = peripheral.controller.securityEvents()
        return [
            Task.onCommandLoop {
                for await event in events {
                    switch event {
                    case let .connected(_, address): Output.progress("connected \(address)")
                    case let .disconnected(_, reason): Output.progress("disconnected (\(reason.name))")
                    default: break
                    }
                }
            },
            Task.onCommandLoop {
                for await event in securityEvents {
                    if event.change.isStorageFailure {
                        Output.error(SecurityEventText.text(event))
                    } else {
                        Output.progress(SecurityEventText.text(event))
                    }
                }
            },
        ]
    }

    // MARK: Signals

    enum Interruptible<T: Sendable>: Sendable {
        case finished(T)
        /// SIGINT or SIGTERM came first.
        case signal(Int32)
    }

    /// Runs `body` until it returns or a signal arrives. On a signal `abort` ends what
    /// `body` waits for (a scan, a connection, a listener); `body`'s end is awaited and
    /// its outcome dropped.
    static func unlessSignalled<T: Sendable>(
        _ inputs: CentralInputs, abort: @escaping @Sendable () async -> Void,
        _ body: @escaping @Sendable () async throws(CommandError) -> T
    ) async throws(CommandError) -> Interruptible<T> {
        let watched = inputs.subscribe()
        // Each task's outcome; nil: the signals stopped coming (the task was cancelled).
        let first = await withTaskGroup(of: Interruptible<Result<T, CommandError>>?.self) { group in
            group.addTask {
                do throws(CommandError) {
                    return .finished(.success(try await body()))
                } catch {
                    return .finished(.failure(error))
                }
            }
            group.addTask {
                for await input in watched {
                    if case let .signal(signo) = input { return .signal(signo) }
                }
                return nil
            }
            var first = await group.next() ?? nil
            if first == nil { first = await group.next() ?? nil }
            if case .signal = first { await abort() }
            group.cancelAll()
            return first
        }
        switch first {
        case let .finished(result): return .finished(try result.get())
        case let .signal(signo): return .signal(signo)
        case nil: throw .failure("stopped without an outcome")
        }
    }

    static func signalName(_ signo: Int32) -> String { signo == SIGTERM ? "SIGTERM" : "SIGINT" }

    /// The command stopped by a signal before a channel was open: exit 0, as `central`
    /// and `peripheral` do when stopped.
    private static func stopped<T>(_ outcome: Interruptible<T>) -> Int32 {
        if case let .signal(signo) = outcome { Output.progress("stopped (\(signalName(signo)))") }
        return 0
    }

    // MARK: Errors

    /// The exit error for a channel that failed: the controller's (3), a parameter the
    /// host refused (2), or the peer's doing (4: refused, disconnected, a rule broken).
    static func failure(_ what: String, _ error: L2CAPChannelError) -> CommandError {
        switch error {
        case .controllerStopped: return .failure("\(what): \(error)")
        case .invalidParameters: return .usage("\(what): \(error)")
        default: return .peer("\(what): \(error)")
        }
    }
}
