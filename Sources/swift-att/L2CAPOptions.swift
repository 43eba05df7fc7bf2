import SwiftATTGATT
import SwiftATTHost
import SwiftATTL2CAP
import SwiftATTTransport

/// What `swift-att l2cap listen|connect` was asked for, every value checked before the
/// controller is opened: a bad PSM, size or count is a usage error naming the token.
struct L2CAPOptions: Sendable {
    enum Role: String, Sendable {
        case listen, connect
    }

    /// What the command does with a channel.
    enum Work: Sendable, Equatable {
        /// Standard input into the channel, the channel onto standard output.
        case pipe
        /// listen --bench: read and drop, then report.
        case receiveBench
        /// connect --bench: send this many octets of a pattern, then report.
        case sendBench(octets: Int)
    }

    var role: Role
    var psm: SPSM
    var work = Work.pipe
    /// connect: the device, an address or a piece of its advertised name.
    var device = ""
    var mode = CreditBasedFlowControlMode.leCreditBased
    /// The sizes and credits this side offers, and (listen) the security it asks for.
    var parameters = L2CAPChannelParameters()
    /// The largest SDU to send; nil: the peer's MTU.
    var sdu: Int?
    var transport: TransportSpecification
    var capture: String?
    /// The bond file (`--bonds`).
    var bonds: String
    var pairing = PairingOptions()
    /// connect: what the link must reach before the channel is asked for.
    var linkSecurity = AttributePermissions.Access.open
    /// listen: the advertised name and GAP Device Name.
    var name = "swift-att L2CAP"
    /// connect: how long to scan for the device.
    var scanTimeout: Duration = .seconds(10)
    /// Standard input is not read: the channel stays open until the peer closes it.
    var receiveOnly = false
    var json = false

    var command: String { "l2cap \(role.rawValue)" }

    /// `swift-att l2cap …`'s arguments split: `--bench` is a flag for `listen` and an
    /// option with an optional size for `connect` (`attachingBenchSize`), so the action
    /// is found first, with every `--bench` set aside.
    static func arguments(_ arguments: [String]) throws(CommandError) -> Arguments {
        let flags = Set(["--json", "--recv-only"] + PairingOptions.flagNames)
        let options = Set(["--transport", "--btsnoop", BondsFileOption.name, "--name", "--mtu", "--mps", "--credits",
                            "--security", "--mode", "--sdu", "--timeout"] + PairingOptions.optionNames)
        let withoutBench = arguments.filter { $0 != "--bench" && !$0.hasPrefix("--bench=") }
        let rough = try Arguments(withoutBench, flags: flags, options: options, command: "l2cap")
        guard rough.positionals.first == Role.connect.rawValue else {
            return try Arguments(arguments, flags: flags.union(["--bench"]), options: options, command: "l2cap")
        }
        return try Arguments(attachingBenchSize(arguments), flags: flags, options: options.union(["--bench"]), command: "l2cap")
    }

    /// Options that only one role takes, with why.
    static let listenOnly = ["--name": "the name a listener advertises"]
    static let connectOnly = ["--mode": "a listener accepts both modes", "--timeout": "it bounds the scan for <device>",
                              "--no-pair": "a listener asks for security with --security, and the central pairs"]

    /// The K-frame payload this host reassembles at most (the host's
    /// `L2CAPChannels.largestFramePayload`, which `Controller.listen` and `openChannel`
    /// enforce): larger MPS values are refused here, before the radio.
    static let largestMPS: UInt16 = 2048
    /// `--bench` without a size: a mebibyte.
    static let defaultBenchOctets = 1 << 20

    init(_ args: Arguments) throws(CommandError) {
        guard let word = args.positionals.first else {
            throw .usage("l2cap: missing 'listen' or 'connect' (see 'swift-att l2cap --help')")
        }
        guard let role = Role(rawValue: word) else {
            throw .usage("l2cap: unknown action '\(word)': 'listen' or 'connect' (see 'swift-att l2cap --help')")
        }
        let command = "l2cap \(word)"
        for (option, why) in role == .listen ? Self.connectOnly : Self.listenOnly
        where args.option(option) != nil || args.has(option) {
            throw .usage("\(command): \(option) is for '\(role == .listen ? "connect" : "listen")' (\(why))")
        }
        let rest = Array(args.positionals.dropFirst())
        switch role {
        case .listen:
            guard let psm = rest.first else { throw .usage("\(command): missing <psm> (1 to 255, or 0x01 to 0xFF)") }
            if rest.count > 1 { throw .usage("\(command): unexpected argument '\(rest[1])'") }
            self.psm = try Self.psm(psm, command)
        case .connect:
            if rest.count > 2 {
                // `--bench 12Q`: not a size, so taken for a positional.
                let hint = args.option("--bench") == "" ? " (--bench takes octets to send, 1 to 4G: a number, or one with K, M or G)" : ""
                throw .usage("\(command): unexpected argument '\(rest[2])'\(hint)")
            }
            guard rest.count == 2 else { throw .usage("\(command): give a device and a PSM: <address|name> <psm>") }
            device = try CentralConnector.device(rest[0], command: command)
            psm = try Self.psm(rest[1], command)
        }
        self.role = role
        transport = try ControllerSession.specification(args)
        capture = args.option("--btsnoop")
        bonds = BondsFileOption.path(args)
        pairing = try PairingOptions(args, command: command)
        json = args.has("--json")
        receiveOnly = args.has("--recv-only")

        if let text = args.option("--mode") {
            switch text {
            case "le": mode = .leCreditBased
            case "enhanced": mode = .enhancedCreditBased
            default: throw .usage("\(command): --mode takes le (LE Credit Based) or enhanced (Enhanced Credit Based), not '\(text)'")
            }
        }
        // A listener takes either mode: its sizes are checked as the LE mode allows them.
        let mtus = mode.mtuRange
        let mpss = mode.mpsRange.lowerBound...Self.largestMPS
        let modeWords = role == .connect && mode == .enhancedCreditBased ? " in enhanced mode" : ""
        if let text = args.option("--mtu") {
            parameters.mtu = UInt16(try Self.number(text, "--mtu", in: Int(mtus.lowerBound)...Int(mtus.upperBound), command, modeWords))
        }
        if let text = args.option("--mps") {
            parameters.mps = UInt16(try Self.number(text, "--mps", in: Int(mpss.lowerBound)...Int(mpss.upperBound), command,
                                                    modeWords + " (\(Self.largestMPS): the largest K-frame this host reassembles)"))
        }
        if let text = args.option("--credits") {
            parameters.credits = UInt16(try Self.number(text, "--credits", in: 1...0xFFFF, command))
        }
        if let text = args.option("--sdu") {
            sdu = try Self.number(text, "--sdu", in: 1...0xFFFF, command)
        }
        if let text = args.option("--timeout") { scanTimeout = try CentralCommand.seconds(text, "--timeout", command: command) }
        if let text = args.option("--name") {
            guard !text.isEmpty, text.utf8.count <= 248 else {
                throw .usage("\(command): --name must be 1 to 248 bytes of UTF-8 (the GAP Device Name's limit)")
            }
            name = text
        }
        if let word = args.option("--security") {
            guard let access = CentralCommand.securityWords.first(where: { $0.words.contains(word) })?.access else {
                throw .usage("\(command): --security takes \(CentralCommand.securityList), not '\(word)'")
            }
            switch role {
            case .listen:
                parameters.security = access
            case .connect:
                if access != .open && !pairing.pairsOnRefusal {
                    throw .usage("\(command): --security \(word) needs pairing or a bond's encryption, which --no-pair forbids")
                }
                linkSecurity = access
            }
        }
        if role == .listen && args.has("--bench") {
            work = .receiveBench
        } else if let text = args.option("--bench") {
            work = .sendBench(octets: text.isEmpty ? Self.defaultBenchOctets : try Self.octets(text, command))
        }
        try checkCombinations(command)
    }

    private func checkCombinations(_ command: String) throws(CommandError) {
        if json && work == .pipe {
            throw .usage("\(command): --json is for --bench (without it standard output carries the channel's bytes)")
        }
        if receiveOnly && work != .pipe {
            throw .usage("\(command): --recv-only is for the pipe (--bench on 'listen' only receives, on 'connect' only sends)")
        }
        if sdu != nil && work == .receiveBench {
            throw .usage("\(command): --sdu sizes what this side sends; 'listen --bench' only receives")
        }
    }

    /// An SPSM: 1 to 255 in decimal, or 0x01 to 0xFF.
    static func psm(_ text: String, _ command: String) throws(CommandError) -> SPSM {
        let lowered = text.lowercased()
        let value = lowered.hasPrefix("0x") ? Int(lowered.dropFirst(2), radix: 16) : Int(lowered)
        guard let value else {
            throw .usage("\(command): '\(text)' is not a PSM: give 1 to 255 in decimal or 0x hex (128, 0x80)")
        }
        guard (Int(SPSM.validRange.lowerBound)...Int(SPSM.validRange.upperBound)).contains(value) else {
            throw .usage("\(command): PSM '\(text)' is outside 0x0001–0x00FF, the LE SPSMs "
                         + "(0x0001–0x007F are assigned by the SIG, 0x0080–0x00FF are free for your own services)")
        }
        return SPSM(UInt16(value))
    }

    /// A decimal count in `range`.
    static func number(_ text: String, _ option: String, in range: ClosedRange<Int>, _ command: String,
                       _ qualifier: String = "") throws(CommandError) -> Int {
        guard let value = Int(text), range.contains(value) else {
            throw .usage("\(command): \(option) takes \(range.lowerBound) to \(range.upperBound)\(qualifier), not '\(text)'")
        }
        return value
    }

    /// `1048576`, `64K`, `10M`, `1G` (powers of 1024, as dd and head -c read them).
    static func octets(_ text: String, _ command: String) throws(CommandError) -> Int {
        let units: [Character: Int] = ["K": 1 << 10, "M": 1 << 20, "G": 1 << 30]
        var digits = Substring(text)
        var unit = 1
        if let last = digits.last, let scale = units[Character(last.uppercased())] {
            unit = scale
            digits = digits.dropLast()
        }
        guard let count = Int(digits), count > 0, count <= (1 << 32) / unit else {
            throw .usage("\(command): --bench takes octets to send, 1 to 4G: a number, or one with K, M or G "
                         + "(64K, 10M), not '\(text)'")
        }
        return count * unit
    }

    /// `--bench 10M` as `--bench=10M`, so that the size stays optional: `--bench` takes
    /// the next argument when it is a size, and is given an empty one otherwise.
    static func attachingBenchSize(_ arguments: [String]) -> [String] {
        var out: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--" {
                out += arguments[index...]
                break
            }
            if argument == "--bench" {
                let next = index + 1 < arguments.count ? arguments[index + 1] : nil
                if let next, (try? octets(next, "")) != nil {
                    out.append("--bench=\(next)")
                    index += 2
                    continue
                }
                out.append("--bench=")
            } else {
                out.append(argument)
            }
            index += 1
        }
        return out
    }
}
