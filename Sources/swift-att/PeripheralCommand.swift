import SwiftATTCore
import SwiftATTGATT
import SwiftATTProfiles
import SwiftATTTransport

/// `swift-att peripheral <profile> [--transport T] [--name NAME] [--btsnoop FILE]
/// [--duration SECONDS] [--json]` with each profile's own options, or `swift-att
/// peripheral --database FILE.json`: serves one of the built-in profiles, or a database
/// described in JSON, as a GATT peripheral, advertises it, and prints what centrals do,
/// like a CBPeripheralManager delegate's log. Runs until SIGINT or SIGTERM, or for
/// `--duration` seconds.
enum PeripheralCommand {
    enum Profile: String, CaseIterable, Sendable {
        case heartRate = "heart-rate"
        case transfer
        case hc08
        case light
        case battery
        case deviceInformation = "device-information"
        /// `--database FILE`: not a word on the command line.
        case database

        var defaultName: String {
            switch self {
            case .heartRate: return HeartRateProfile.defaultName
            case .transfer: return TransferProfile.defaultName
            case .hc08: return SerialModuleProfile.defaultName
            case .light: return LightShieldProfile.defaultName
            case .battery: return BatteryProfile.defaultName
            case .deviceInformation: return DeviceInformationProfile.defaultName
            case .database: return "swift-att"
            }
        }
    }

    /// What the command line asked for, checked.
    struct Options: Sendable {
        var profile: Profile
        var transport: TransportSpecification
        var name: String
        var capture: String?
        /// The bond file (`--bonds`).
        var bonds: String
        var duration: Duration?
        var json: Bool
        /// transfer: what to send.
        var text: [UInt8] = Array(TransferProfile.defaultText.utf8)
        /// heart-rate: time between measurements.
        var interval: Duration = .seconds(1)
        var intervalMilliseconds = 1000
        var format: HeartRateMeasurement.ValueFormat = .uint8
        /// battery, or heart-rate with --battery: the level to start at.
        var battery: BatteryOptions?
        /// device-information, or heart-rate with --device-information.
        var deviceInformation: DeviceInformation?
        /// --database: the file's path and text (parsed once the session can take writes).
        var databaseFile: (path: String, text: String)?
        /// Whether --name was given (a database file's own name yields to it).
        var nameGiven = false
        /// How centrals pair with it: `--io`, `--passkey`, `--yes`.
        var pairing = PairingOptions()
        /// `--privacy`, `--privacy-timeout`.
        var privacy = PrivacyOptions()
        /// `--eatt`: what the GATT service's Server Supported Features announces
        /// (Enhanced ATT: bearers accepted on PSM 0x0027 from encrypted links).
        var serverFeatures: GATTServerFeatures = []
    }

    struct BatteryOptions: Sendable {
        var level: UInt8 = 100
        /// Time per percent drained; `nil` never drains.
        var drain: Duration? = .seconds(60)
    }

    static let profileList = "heart-rate, transfer, hc08, light, battery or device-information"
    static let batteryOptions = ["--level", "--drain"]
    static let deviceInformationOptions = [
        "--manufacturer", "--model", "--serial", "--hardware-revision", "--firmware-revision", "--software-revision",
        "--system-id", "--pnp-id",
    ]

    static func run(_ arguments: [String]) async throws(CommandError) -> Int32 {
        let args = try Arguments(
            arguments, flags: Set(["--json", "--uint16", "--battery", "--device-information", "--yes", "--eatt"] + PrivacyOptions.flagNames),
            options: Set(["--transport", "--name", "--btsnoop", "--duration", "--text", "--file", "--interval", "--database",
                          BondsFileOption.name]
                         + batteryOptions + deviceInformationOptions + PairingOptions.optionNames + PrivacyOptions.optionNames),
            command: "peripheral")
        if args.wantsHelp {
            Output.print(Usage.peripheral)
            return 0
        }
        return try await PeripheralSession.run(try options(args))
    }

    static func options(_ args: Arguments) throws(CommandError) -> Options {
        let profile: Profile
        switch (args.positionals.first, args.option("--database")) {
        case (nil, nil):
            throw .usage("peripheral: missing profile (\(profileList)) or --database FILE; see 'swift-att peripheral --help'")
        case let (word?, path?):
            throw .usage("peripheral: give a profile ('\(word)') or --database \(path), not both")
        case (nil, _?):
            profile = .database
        case let (word?, nil):
            guard let named = Profile(rawValue: word), named != .database else {
                throw .usage("peripheral: unknown profile '\(word)' (\(profileList))")
            }
            profile = named
        }
        if args.positionals.count > 1 { throw .usage("peripheral: unexpected argument '\(args.positionals[1])'") }

        let what = profile == .database ? "--database" : profile.rawValue
        for option in ["--text", "--file"] where profile != .transfer && args.option(option) != nil {
            throw .usage("peripheral \(what): \(option) is for the transfer profile")
        }
        for option in ["--interval"] where profile != .heartRate && args.option(option) != nil {
            throw .usage("peripheral \(what): \(option) is for the heart-rate profile")
        }
        for flag in ["--uint16", "--battery", "--device-information"] where profile != .heartRate && args.has(flag) {
            throw .usage("peripheral \(what): \(flag) is for the heart-rate profile")
        }
        let servesBattery = profile == .battery || (profile == .heartRate && args.has("--battery"))
        let servesInformation = profile == .deviceInformation || (profile == .heartRate && args.has("--device-information"))
        for option in batteryOptions where !servesBattery && args.option(option) != nil {
            throw .usage("peripheral \(what): \(option) is for the battery profile (or heart-rate --battery)")
        }
        for option in deviceInformationOptions where !servesInformation && args.option(option) != nil {
            throw .usage("peripheral \(what): \(option) is for the device-information profile (or heart-rate --device-information)")
        }

        let name = args.option("--name") ?? profile.defaultName
        guard !name.isEmpty, name.utf8.count <= 248 else {
            throw .usage("peripheral: --name must be 1 to 248 bytes of UTF-8 (the GAP Device Name's limit)")
        }
        var options = Options(
            profile: profile, transport: try ControllerSession.specification(args), name: name,
            capture: args.option("--btsnoop"), bonds: BondsFileOption.path(args), json: args.has("--json"))
        options.nameGiven = args.option("--name") != nil
        options.pairing = try PairingOptions(args, command: "peripheral")
        options.privacy = try PrivacyOptions(args, command: "peripheral")
        if args.has("--eatt") { options.serverFeatures = [.enhancedATT] }
        if servesBattery { options.battery = try batteryOptions(args) }
        if servesInformation { options.deviceInformation = try deviceInformation(args) }
        if let path = args.option("--database") {
            options.databaseFile = (path, try FileInput.text(atPath: path))
        }

        if let text = args.option("--duration") {
            guard let seconds = Double(text), seconds.isFinite, seconds > 0, seconds <= 1_000_000 else {
                throw .usage("peripheral: --duration takes a number of seconds greater than 0, not '\(text)'")
            }
            options.duration = .seconds(seconds)
        }
        if let text = args.option("--interval") {
            guard let ms = Int(text), (10...3_600_000).contains(ms) else {
                throw .usage("peripheral: --interval takes milliseconds from 10 to 3600000, not '\(text)'")
            }
            options.interval = .milliseconds(ms)
            options.intervalMilliseconds = ms
        }
        if args.has("--uint16") { options.format = .uint16 }
        switch (args.option("--text"), args.option("--file")) {
        case (_?, _?):
            throw .usage("peripheral transfer: give --text or --file, not both")
        case let (text?, nil):
            options.text = Array(text.utf8)
        case let (nil, path?):
            options.text = try FileInput.bytes(atPath: path)
        case (nil, nil):
            break
        }
        return options
    }

    static func batteryOptions(_ args: Arguments) throws(CommandError) -> BatteryOptions {
        var battery = BatteryOptions()
        if let text = args.option("--level") {
            guard let level = UInt8(text), level <= 100 else {
                throw .usage("peripheral: --level takes a percentage from 0 to 100, not '\(text)'")
            }
            battery.level = level
        }
        if let text = args.option("--drain") {
            guard let ms = Int(text), (0...86_400_000).contains(ms) else {
                throw .usage("peripheral: --drain takes milliseconds per percent from 0 (never) to 86400000, not '\(text)'")
            }
            battery.drain = ms == 0 ? nil : .milliseconds(ms)
        }
        return battery
    }

    static func deviceInformation(_ args: Arguments) throws(CommandError) -> DeviceInformation {
        var information = DeviceInformation(firmwareRevision: swiftATTVersion, softwareRevision: swiftATTVersion)
        let strings: [(String, WritableKeyPath<DeviceInformation, String?>)] = [
            ("--manufacturer", \.manufacturerName), ("--model", \.modelNumber), ("--serial", \.serialNumber),
            ("--hardware-revision", \.hardwareRevision), ("--firmware-revision", \.firmwareRevision),
            ("--software-revision", \.softwareRevision),
        ]
        for (option, field) in strings {
            guard let text = args.option(option) else { continue }
            guard text.utf8.count <= 512 else { throw .usage("peripheral: \(option) is longer than a value's 512 bytes") }
            // An empty value leaves the characteristic out.
            information[keyPath: field] = text.isEmpty ? nil : text
        }
        if let text = args.option("--system-id") {
            guard let bytes = try? Hex.decode(text), bytes.count == 8, let id = try? SystemID(decoding: bytes[...]) else {
                throw .usage("peripheral: --system-id takes the 8 octets as sent, in hex (16 digits), not '\(text)'")
            }
            information.systemID = id
        }
        if let text = args.option("--pnp-id") {
            guard let id = PnPID(text: text) else {
                throw .usage("peripheral: --pnp-id takes SOURCE:VENDOR:PRODUCT:VERSION (usb or bluetooth, then hex), "
                                + "as in usb:1d6b:0246:0100, not '\(text)'")
            }
            information.pnpID = id
        }
        return information
    }
}
