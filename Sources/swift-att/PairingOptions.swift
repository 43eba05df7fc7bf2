import SwiftATTHost
import SwiftATTSMP
import SwiftATTSecurity

/// `--io`, `--passkey`, `--yes` and `--no-pair`: how a command pairs, checked before any
/// radio work.
///
/// The words for IO capabilities are bluetoothctl's agent capabilities (`NoInputNoOutput`
/// … `KeyboardDisplay`) in the command line's lower-case style.
struct PairingOptions: Sendable {
    static let optionNames = ["--io", "--passkey"]
    static let flagNames = ["--yes", "--no-pair"]

    static let ioWords: [(String, IOCapability)] = [
        ("none", .noInputNoOutput), ("display", .displayOnly), ("display-yesno", .displayYesNo),
        ("keyboard", .keyboardOnly), ("keyboard-display", .keyboardDisplay),
    ]
    static let ioList = "none, display, display-yesno, keyboard or keyboard-display"

    var io: IOCapability = .noInputNoOutput
    /// The passkey to type when the peer shows one, or to show when this side displays.
    var passkey: UInt32?
    /// Numeric Comparison: say yes without asking.
    var assumeYes = false
    /// Pair (or encrypt with the bond) when a request is refused for want of security.
    var pairsOnRefusal = true

    init() {}

    init(_ args: Arguments, command: String) throws(CommandError) {
        if let word = args.option("--io") {
            guard let io = Self.ioWords.first(where: { $0.0 == word })?.1 else {
                throw .usage("\(command): --io takes \(Self.ioList), not '\(word)'")
            }
            self.io = io
        }
        if let text = args.option("--passkey") {
            guard text.count == 6, text.allSatisfy(\.isASCIIDigitCharacter), let passkey = UInt32(text) else {
                throw .usage("\(command): --passkey takes six digits (000000 to 999999), not '\(text)'")
            }
            self.passkey = passkey
        }
        assumeYes = args.has("--yes")
        pairsOnRefusal = !args.has("--no-pair")
    }

    /// The host's settings: MITM protection whenever the IO capability can give it.
    var securityConfiguration: SecurityConfiguration {
        SecurityConfiguration(
            pairing: PairingConfiguration(ioCapability: io, fixedPasskey: io.canDisplay ? passkey : nil),
            pairsOnSecurityError: pairsOnRefusal)
    }

    /// Gives `controller` the host's pairing settings; the user's part goes to `delegate`.
    /// Only the stored identity can be wrong here (the options were checked before): bad
    /// input, exit 1.
    static func configure(_ controller: Controller, _ security: SecurityConfiguration,
                          delegate: some PairingDelegate) async throws(CommandError) {
        do {
            try await controller.configureSecurity(security, delegate: delegate)
        } catch {
            throw .input("cannot pair as configured: \(error)")
        }
    }

    static func word(for io: IOCapability) -> String {
        ioWords.first { $0.1 == io }?.0 ?? "0x\(String(io.rawValue, radix: 16))"
    }
}

extension IOCapability {
    /// The device has a display to show a passkey on.
    var canDisplay: Bool { self == .displayOnly || self == .displayYesNo || self == .keyboardDisplay }
}

extension Character {
    var isASCIIDigitCharacter: Bool { ("0"..."9").contains(self) }
}
