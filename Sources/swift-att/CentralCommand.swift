import SwiftATTCore
import SwiftATTGATT
import SwiftATTProfiles
import SwiftATTTransport

/// `swift-att central <action> …`: the central role from a shell, as LightBlue or nRF
/// Connect offer it — scan, connect, discover, read, write, subscribe, an interactive
/// shell, and the seeds' flows as ready commands. Every action that talks to a device
/// finds it by scanning first (by address, name or service), connects, exchanges MTU and
/// discovers what it needs.
enum CentralCommand {
    enum Action: String, CaseIterable, Sendable {
        case scan, discover, read, write, subscribe, pair, shell
        case heartRate = "heart-rate", hc08, light, transfer
    }

    /// What the command line asked for, checked.
    struct Options: Sendable {
        var action: Action
        var transport: TransportSpecification
        var capture: String?
        /// The bond file (`--bonds`).
        var bonds: String
        var json = false
        /// The device: an address, or a piece of its name; `nil` finds it by `services`.
        var target: String?
        /// Positionals after the target (characteristic, value, light commands).
        var operands: [String] = []
        var services: [BluetoothUUID] = []
        var name: String?
        var minimumRSSI: Int8?
        var duplicates = false
        var passive = false
        /// How long to scan for the target (or, for `scan`, in all).
        var scanTimeout: Duration = .seconds(10)
        /// How long to stay subscribed; `nil`: until Ctrl-C or `count`.
        var duration: Duration?
        var count: Int?
        var withoutResponse = false
        /// write: a Signed Write Command, signed with the CSRK this device gave the peer.
        var signed = false
        /// Values given and printed as UTF-8 text rather than hex.
        var text = false
        /// hc08: lines to send, as if typed.
        var send: [String] = []
        /// How to pair: `--io`, `--passkey`, `--yes`, `--no-pair`.
        var pairing = PairingOptions()
        /// `--security`: what the link must reach before the action starts.
        var security = AttributePermissions.Access.open
        /// `--privacy`, `--privacy-timeout`.
        var privacy = PrivacyOptions()
        /// `--eatt [N]`: how many Enhanced ATT bearers to open once connected.
        var enhancedBearers: Int?

        /// How `CentralConnector` finds and connects to the device.
        var search: CentralConnector.Search {
            CentralConnector.Search(command: "central \(action.rawValue)", target: target, services: services, name: name,
                                    minimumRSSI: minimumRSSI, passive: passive, scanTimeout: scanTimeout, security: security,
                                    enhancedBearers: enhancedBearers)
        }
    }

    /// `--security` words: the JSON database's permission words, and gatttool's
    /// `--sec-level` words beside them for users coming from it.
    static let securityWords: [(words: [String], access: AttributePermissions.Access)] = [
        (["open", "low"], .open),
        (["encrypted", "medium"], .encrypted),
        (["authenticated", "high"], .authenticated),
        (["secure-connections", "fips"], .secureConnections),
    ]
    static let securityList = "open, encrypted, authenticated or secure-connections (gatttool's low, medium, high, fips)"

    static let actionList = "scan, discover, read, write, subscribe, pair, shell, heart-rate, hc08, light or transfer"

    /// `--eatt` alone: as many Enhanced ATT bearers as one L2CAP request opens.
    static let defaultEnhancedBearers = 5
    /// The most `Peer.openEnhancedBearers` opens (in requests of five).
    static let enhancedBearerLimit = 32

    static func run(_ arguments: [String]) async throws(CommandError) -> Int32 {
        let args = try Arguments(
            arguments, flags: Set(["--json", "--duplicates", "--passive", "--without-response", "--signed", "--text"] + PairingOptions.flagNames
                                    + PrivacyOptions.flagNames),
            options: Set(["--transport", "--btsnoop", "--service", "--name", "--rssi", "--timeout", "--duration", "--count", "--send", "--security",
                          BondsFileOption.name] + PairingOptions.optionNames + PrivacyOptions.optionNames),
            optionalValues: ["--eatt"], command: "central")
        if args.wantsHelp {
            Output.print(Usage.central)
            return 0
        }
        return try await CentralSession.run(try options(args))
    }

    static func options(_ args: Arguments) throws(CommandError) -> Options {
        guard let word = args.positionals.first else {
            throw .usage("central: missing action (\(actionList); see 'swift-att central --help')")
        }
        guard let action = Action(rawValue: word) else {
            throw .usage("central: unknown action '\(word)' (\(actionList))")
        }
        var options = Options(action: action, transport: try ControllerSession.specification(args), capture: args.option("--btsnoop"),
                              bonds: BondsFileOption.path(args))
        options.json = args.has("--json")
        options.duplicates = args.has("--duplicates")
        options.passive = args.has("--passive")
        options.withoutResponse = args.has("--without-response")
        options.signed = args.has("--signed")
        options.text = args.has("--text")
        options.pairing = try PairingOptions(args, command: "central")
        if let word = args.option("--security") {
            guard let access = securityWords.first(where: { $0.words.contains(word) })?.access else {
                throw .usage("central: --security takes \(securityList), not '\(word)'")
            }
            guard action != .scan else { throw .usage("central scan: --security is for actions that connect") }
            if access != .open && !options.pairing.pairsOnRefusal {
                throw .usage("central: --security \(word) needs pairing or a bond's encryption, which --no-pair forbids")
            }
            options.security = access
        }
        options.privacy = try PrivacyOptions(args, command: "central")
        options.enhancedBearers = try enhancedBearers(args, action: action)
        options.name = args.option("--name")
        if let list = args.option("--service") {
            for item in list.split(separator: ",") {
                guard let uuid = BluetoothUUID(String(item)) else {
                    throw .usage("central: --service takes Bluetooth UUIDs (180D, 0000180d-0000-1000-8000-00805f9b34fb), not '\(item)'")
                }
                options.services.append(uuid)
            }
        }
        if let text = args.option("--rssi") {
            guard let rssi = Int8(text), rssi <= 20 else { throw .usage("central: --rssi takes dBm from -128 to 20, not '\(text)'") }
            options.minimumRSSI = rssi
        }
        if let text = args.option("--timeout") { options.scanTimeout = try seconds(text, "--timeout") }
        if let text = args.option("--duration") { options.duration = try seconds(text, "--duration") }
        if let text = args.option("--count") {
            guard let count = Int(text), count > 0 else { throw .usage("central: --count takes a number above 0, not '\(text)'") }
            options.count = count
        }
        if let line = args.option("--send") { options.send = [line] }

        // Every operand is checked here, before the controller is opened: a bad one is
        // named at once, not after a scan, a connection and a discovery.
        var rest = Array(args.positionals.dropFirst())
        switch action {
        case .scan:
            if let extra = rest.first { throw .usage("central scan: unexpected argument '\(extra)' (filter with --service, --name, --rssi)") }
            if action == .scan, args.option("--timeout") == nil { options.scanTimeout = options.duration ?? .seconds(10) }
        case .pair:
            guard rest.count == 1 else { throw .usage("central pair: give one device: <address|name>") }
            options.target = try device(rest[0], action: action)
        case .discover, .shell, .heartRate, .hc08, .transfer:
            options.target = try rest.first.map { (word) throws(CommandError) in try device(word, action: action) }
            if rest.count > 1 { throw .usage("central \(action.rawValue): unexpected argument '\(rest[1])'") }
        case .read, .subscribe:
            guard rest.count == 2 else { throw .usage("central \(action.rawValue): give a device and a characteristic: <address|name> <uuid|handle>") }
            options.target = try device(rest[0], action: action)
            options.operands = [rest[1]]
            try checkOperands(options.operands, of: action, text: options.text)
        case .write:
            guard rest.count == 3 else { throw .usage("central write: give a device, a characteristic and a value: <address|name> <uuid|handle> <hex|text>") }
            options.target = try device(rest[0], action: action)
            options.operands = [rest[1], rest[2]]
            try checkOperands(options.operands, of: action, text: options.text)
        case .light:
            // An optional device, then light commands (3=on, 2=off, or two hex octets). A
            // first word with '=' is a light command, even a bad one (3=maybe): it is named
            // as such rather than looked for as a device.
            if let first = rest.first, LightCommandText.parse(first) == nil, !first.contains("=") {
                options.target = try device(first, action: action)
                rest.removeFirst()
            }
            guard !rest.isEmpty else { throw .usage("central light: give light commands: 1=on 2=off, or hex 0101") }
            for item in rest where LightCommandText.parse(item) == nil {
                throw .usage("central light: '\(item)' is not a light command (LIGHT=on|off, or two hex octets like 0301)")
            }
            options.operands = rest
        }
        if options.signed && options.withoutResponse {
            throw .usage("central write: --signed and --without-response are two kinds of write; give one")
        }
        for flag in ["--without-response", "--signed", "--text"] where action != .write && args.has(flag) {
            throw .usage("central \(action.rawValue): \(flag) is for 'write'")
        }
        if action != .hc08, let line = args.option("--send") {
            throw .usage("central \(action.rawValue): --send '\(line)' is for 'hc08'")
        }
        return options
    }

    /// `CentralConnector.device`, for `central <action>`.
    static func device(_ word: String, action: Action) throws(CommandError) -> String {
        try CentralConnector.device(word, command: "central \(action.rawValue)")
    }

    /// The operands `read`, `subscribe` and `write` resolve once connected, read now as
    /// they will be then, so that a bad one is named before any radio work.
    static func checkOperands(_ operands: [String], of action: Action, text: Bool) throws(CommandError) {
        do throws(CommandError) {
            _ = try CentralConnector.characteristicReference(operands[0])
            if action == .write { _ = try CentralActions.value(operands[1], text: text) }
        } catch {
            switch error {
            case let .usage(message): throw .usage("central \(action.rawValue): \(message)")
            case let .input(message): throw .input("central \(action.rawValue): \(message)")
            default: throw error
            }
        }
    }

    /// `--eatt` (five bearers) or `--eatt N`, for the actions that talk GATT.
    static func enhancedBearers(_ args: Arguments, action: Action) throws(CommandError) -> Int? {
        let count: Int
        if let text = args.option("--eatt") {
            let range = 1...enhancedBearerLimit
            guard let n = Int(text) else {
                // `--eatt DEVICE`: the word after --eatt is its number, when there is one.
                throw .usage("central: --eatt takes a number of Enhanced ATT bearers from 1 to \(range.upperBound), not '\(text)'"
                             + " (alone it opens \(defaultEnhancedBearers): give it after the device, or write --eatt=N)")
            }
            guard range.contains(n) else {
                throw .usage("central: --eatt takes a number of Enhanced ATT bearers from 1 to \(range.upperBound), not '\(text)'")
            }
            count = n
        } else if args.has("--eatt") {
            count = defaultEnhancedBearers
        } else {
            return nil
        }
        if action == .scan || action == .pair {
            throw .usage("central \(action.rawValue): --eatt is for actions that talk GATT to a device")
        }
        return count
    }

    static func seconds(_ text: String, _ option: String, command: String = "central") throws(CommandError) -> Duration {
        guard let seconds = Double(text), seconds.isFinite, seconds > 0, seconds <= 1_000_000 else {
            throw .usage("\(command): \(option) takes a number of seconds greater than 0, not '\(text)'")
        }
        return .milliseconds(Int64(seconds * 1000))
    }
}
