#if canImport(Glibc)
import Glibc
#endif
import SwiftATTAdvertising
import SwiftATTJSON
import SwiftATTCore
import SwiftATTGATT
import SwiftATTHCI
import SwiftATTHost
import SwiftATTProfiles
import SwiftATTTransport
import Synchronization

/// One run of `swift-att central`: opens the controller, carries out the action, and
/// always closes the controller again (a link still up is ended with it).
enum CentralSession {
    /// Names of the seeds' own UUIDs; SIG names cover the rest.
    static let names: [BluetoothUUID: String] = HeartRateProfile.names
        .merging(TransferProfile.names) { a, _ in a }
        .merging(SerialModuleProfile.names) { a, _ in a }
        .merging(LightShieldProfile.names) { a, _ in a }

    static func run(_ options: CentralCommand.Options) async throws(CommandError) -> Int32 {
        let report = EventReport(json: options.json, names: names)
        if options.action == .shell { return try await runShell(options, report: report) }
        // Pairing questions are asked on the terminal unless something else reads it.
        let readsLines = options.action == .hc08
        let asksOnTerminal = !readsLines && isatty(STDIN_FILENO) == 1
        let inputs = CentralInputs.start(readingLines: readsLines || asksOnTerminal)
        var host = Host(command: "central", transport: options.transport, capture: options.capture, bonds: options.bonds,
                        pairing: options.pairing, privacy: options.privacy)
        // A signed write is asked for on a plain link: encrypting the bonded link at once
        // would turn it into a Write Command (Part G §4.9.2).
        if options.signed { host.security.encryptsBondedLinks = false }
        return try await withCentral(host, report: report, terminal: asksOnTerminal ? inputs : nil,
                                     resultOnStandardOutput: options.action == .pair) { central throws(CommandError) in
            try await perform(options, central: central, report: report, inputs: inputs)
        }
    }

    /// `central shell`: on a terminal (standard input and output both), with the line
    /// editor, which also asks the pairing questions; from a pipe, line by line.
    private static func runShell(_ options: CentralCommand.Options, report: EventReport) async throws(CommandError) -> Int32 {
        let inputs = CentralInputs()
        let completion = SharedCompletion()
        var editor: LineEditor?
        if isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 {
            let environment = ["XDG_STATE_HOME": getenv("XDG_STATE_HOME"), "HOME": getenv("HOME")]
                .compactMapValues { $0.map { String(cString: $0) } }
            editor = LineEditor.start(
                prompt: "[not connected]> ", history: ShellHistory(path: ShellHistory.defaultPath(environment: environment)),
                complete: { line, start in completion.candidates(line: line, wordStart: start) },
                deliver: { inputs.broadcast($0) })
        }
        defer { editor?.stop() }
        inputs.watch(readingLines: editor == nil)
        let host = Host(command: "central", transport: options.transport, capture: options.capture, bonds: options.bonds,
                        pairing: options.pairing, privacy: options.privacy)
        return try await withCentral(host, report: report, terminal: editor == nil ? nil : inputs) { central throws(CommandError) in
            await CentralShell(options: options, central: central, report: report, inputs: inputs,
                               editor: editor, completion: completion).run()
        }
    }

    /// What a command that acts as a central runs on: the controller, the bond file, and
    /// how it pairs.
    struct Host {
        /// `central`, `l2cap connect`: for the messages.
        var command: String
        var transport: TransportSpecification
        var capture: String?
        /// The bond file (`--bonds`).
        var bonds: String
        var pairing: PairingOptions
        var privacy = PrivacyOptions()
        /// The host's settings, from `pairing` unless changed.
        var security: SecurityConfiguration

        init(command: String, transport: TransportSpecification, capture: String?, bonds: String, pairing: PairingOptions,
             privacy: PrivacyOptions = PrivacyOptions()) {
            self.command = command
            self.transport = transport
            self.capture = capture
            self.bonds = bonds
            self.pairing = pairing
            self.privacy = privacy
            security = pairing.securityConfiguration
            security.privateAddressLifetime = privacy.lifetime
        }
    }

    /// Opens the controller with the bond file, sets pairing up, reports the links'
    /// security as it changes, runs `body`, and always closes the controller again (a
    /// link still up is ended with it) and lets the bond file go.
    static func withCentral(
        _ host: Host, report: EventReport, terminal: CentralInputs?, resultOnStandardOutput: Bool = false,
        _ body: (Central) async throws(CommandError) -> Int32
    ) async throws(CommandError) -> Int32 {
        let bonds = CommandBondFile(path: host.bonds)
        try ControllerSession.beforeOpening(host.transport)
        let central: Central
        do {
            central = try await Central.start(transport: host.transport, capturePath: host.capture, storage: bonds)
        } catch {
            throw bonds.commandError(error)
        }
        let delegate = TerminalPairingDelegate(options: host.pairing, terminal: terminal, json: report.json)
        do throws(CommandError) {
            try await PairingOptions.configure(central.controller, host.security, delegate: delegate)
            if let identity = try host.privacy.identity(of: central.controller, command: host.command, bondFile: host.bonds) {
                Output.progress("privacy: scanning and connecting from resolvable private addresses of identity \(identity.address)"
                                + " (peers resolved by \(central.controller.addressResolution))")
            }
        } catch {
            await central.close()
            bonds.close()
            throw error
        }
        // Pairing, encryption and bonds the file could not keep, as they happen.
        let securityReport = CentralSecurityReport.start(central: central, report: report,
                                                         resultOnStandardOutput: resultOnStandardOutput)
        let result: Result<Int32, CommandError>
        do throws(CommandError) {
            result = .success(try await body(central))
        } catch {
            result = .failure(error)
        }
        await central.close()
        // Closing ends the security events: what happened up to the end is printed.
        await securityReport.value
        bonds.close()
        return try result.get()
    }

    private static func perform(
        _ options: CentralCommand.Options, central: Central, report: EventReport, inputs: CentralInputs
    ) async throws(CommandError) -> Int32 {
        switch options.action {
        case .scan:
            return try await CentralScan.run(options, central: central, report: report, inputs: inputs)
        default:
            break
        }
        let connector = CentralConnector(search: options.search, central: central)
        let peer = try await connector.connect(defaultServices: defaultServices(options.action), report: report)
        let actions = CentralActions(options: options, peer: peer, report: report, inputs: inputs)
        switch options.action {
        case .discover: return try await actions.discover()
        case .read: return try await actions.read()
        case .write: return try await actions.write()
        case .subscribe: return try await actions.subscribe()
        case .pair: return try await actions.pair()
        case .heartRate: return try await CentralSeedFlows(actions: actions).heartRate()
        case .hc08: return try await CentralSeedFlows(actions: actions).serialModule()
        case .light: return try await CentralSeedFlows(actions: actions).light()
        case .transfer: return try await CentralSeedFlows(actions: actions).transfer()
        case .scan, .shell: return 0  // above (and `runShell`)
        }
    }

    /// The service a seed flow looks for when no device is named.
    static func defaultServices(_ action: CentralCommand.Action) -> [BluetoothUUID] {
        switch action {
        case .heartRate: return [HeartRateProfile.service]
        case .hc08: return [SerialModuleProfile.service]
        case .light: return [LightShieldProfile.service]
        case .transfer: return [TransferProfile.service]
        default: return []
        }
    }

    /// The exit error for a failed GATT call: the peer's doing (4), with what was tried.
    static func failure(_ what: String, _ error: GATTClientError) -> CommandError {
        .peer("\(what): \(text(error))")
    }

    static func failure(_ what: String, _ error: CentralError) -> CommandError {
        switch error {
        case let .controller(e): return .failure("\(what): \(e)")
        case let .gatt(e): return failure(what, e)
        default: return .peer("\(what): \(error)")
        }
    }

    /// A GATT client's error as the command says it: the error's own sentence, with an
    /// ATT error code named as `ValueText.errorName` names it (`Application Error 0x80`,
    /// not `Application Error 0x80 (0x80)`).
    static func text(_ error: any Error) -> String {
        switch error as? GATTClientError {
        case let .attributeError(code, _, _)?, let .securityFailed(code, _)?:
            return "\(error)".replacing(code.description, with: ValueText.errorName(code))
        default:
            return "\(error)"
        }
    }
}
