#if canImport(Glibc)
import Glibc
#endif
import Profiles
import Transport

/// `swift-att peripheral <heart-rate|transfer|hc08|light> [--transport T] [--name NAME]
/// [--btsnoop FILE] [--duration SECONDS] [--json]`, plus `--text`/`--file` (transfer) and
/// `--interval`/`--uint16` (heart-rate): serves one of the seeds' profiles as a GATT
/// peripheral, advertises it, and prints what centrals do, like a CBPeripheralManager
/// delegate's log. Runs until SIGINT or SIGTERM, or for `--duration` seconds.
enum PeripheralCommand {
    enum Profile: String, CaseIterable, Sendable {
        case heartRate = "heart-rate"
        case transfer
        case hc08
        case light

        var defaultName: String {
            switch self {
            case .heartRate: return HeartRateProfile.defaultName
            case .transfer: return TransferProfile.defaultName
            case .hc08: return SerialModuleProfile.defaultName
            case .light: return LightShieldProfile.defaultName
            }
        }
    }

    /// What the command line asked for, checked.
    struct Options: Sendable {
        var profile: Profile
        var transport: TransportSpecification
        var name: String
        var capture: String?
        var duration: Duration?
        var json: Bool
        /// transfer: what to send.
        var text: [UInt8] = Array(TransferProfile.defaultText.utf8)
        /// heart-rate: time between measurements.
        var interval: Duration = .seconds(1)
        var intervalMilliseconds = 1000
        var format: HeartRateMeasurement.ValueFormat = .uint8
    }

    static let profileList = "heart-rate, transfer, hc08 or light"

    static func run(_ arguments: [String]) async throws(CommandError) -> Int32 {
        let args = try Arguments(
            arguments, flags: ["--json", "--uint16"],
            options: ["--transport", "--name", "--btsnoop", "--duration", "--text", "--file", "--interval"],
            command: "peripheral")
        if args.wantsHelp {
            Output.print(Usage.peripheral)
            return 0
        }
        return try await PeripheralSession.run(try options(args))
    }

    static func options(_ args: Arguments) throws(CommandError) -> Options {
        guard let word = args.positionals.first else {
            throw .usage("peripheral: missing profile (\(profileList); see 'swift-att peripheral --help')")
        }
        guard let profile = Profile(rawValue: word) else {
            throw .usage("peripheral: unknown profile '\(word)' (\(profileList))")
        }
        if args.positionals.count > 1 { throw .usage("peripheral: unexpected argument '\(args.positionals[1])'") }

        for option in ["--text", "--file"] where profile != .transfer && args.option(option) != nil {
            throw .usage("peripheral \(profile.rawValue): \(option) is for the transfer profile")
        }
        for option in ["--interval"] where profile != .heartRate && args.option(option) != nil {
            throw .usage("peripheral \(profile.rawValue): \(option) is for the heart-rate profile")
        }
        if profile != .heartRate && args.has("--uint16") {
            throw .usage("peripheral \(profile.rawValue): --uint16 is for the heart-rate profile")
        }

        let name = args.option("--name") ?? profile.defaultName
        guard !name.isEmpty, name.utf8.count <= 248 else {
            throw .usage("peripheral: --name must be 1 to 248 bytes of UTF-8 (the GAP Device Name's limit)")
        }
        var options = Options(
            profile: profile, transport: try ControllerSession.specification(args), name: name,
            capture: args.option("--btsnoop"), json: args.has("--json"))

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
            options.text = try DumpCommand.readFile(path)
        case (nil, nil):
            break
        }
        return options
    }
}
