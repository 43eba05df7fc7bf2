import SwiftATTHost
import SwiftATTSecurity

/// `--privacy [--privacy-timeout SECONDS]`: advertise, scan and connect from resolvable
/// private addresses made from the bond file's IRK (Core 5.4 Vol 3 Part C §10.7), a new
/// one at the first start of advertising, scanning or connecting after the last is
/// SECONDS old (15 minutes by default, as phones do). Peers bonded with this host know
/// it under each one by its identity; nobody else can tell them apart.
struct PrivacyOptions: Sendable {
    static let flagNames = ["--privacy"]
    static let optionNames = ["--privacy-timeout"]
    /// RPA_Timeout's default and range (Core 5.4 Vol 4 Part E §7.8.45), in seconds.
    static let defaultSeconds = 900
    static let secondsRange = 1...3600

    /// How long each private address is used; nil: the identity address throughout.
    var lifetime: Duration?

    init() {}

    init(_ args: Arguments, command: String) throws(CommandError) {
        let timeout = args.option("--privacy-timeout")
        guard args.has("--privacy") else {
            if timeout != nil { throw .usage("\(command): --privacy-timeout needs --privacy") }
            return
        }
        var seconds = Self.defaultSeconds
        if let timeout {
            guard let given = Int(timeout), Self.secondsRange.contains(given) else {
                throw .usage("\(command): --privacy-timeout takes seconds from \(Self.secondsRange.lowerBound) to \(Self.secondsRange.upperBound), not '\(timeout)'")
            }
            seconds = given
        }
        lifetime = .seconds(seconds)
    }

    /// The identity the private addresses stand for, once the host took it from the
    /// bond file; an error to act on when there is none. (An all-zero IRK, which would
    /// make addresses anyone can resolve, never gets this far: the bond file's parser
    /// and `configureSecurity` both refuse it.) Nil without `--privacy`.
    func identity(of controller: Controller, command: String, bondFile: String) throws(CommandError) -> LocalIdentity? {
        guard lifetime != nil else { return nil }
        guard let identity = controller.securityConfiguration.pairing.identity else {
            throw .input("\(command): --privacy needs an identity resolving key (IRK), and the bond file \(bondFile) gives none; "
                         + "give --bonds a file swift-att made (it makes one with an IRK on first use)")
        }
        return identity
    }
}
