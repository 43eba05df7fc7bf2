#if canImport(Glibc)
import Glibc
#endif
import SwiftATTCore
import SwiftATTHost
import SwiftATTJSON
import SwiftATTSMP

/// The user's part in pairing, for the command line: answers from `--yes` and
/// `--passkey`, or asks on the terminal ("Does the device show 123456? [y/N]",
/// "Passkey:") when standard input is one and nothing else reads it.
///
/// Without a terminal and without the option it needs, a question is refused with a
/// line that names the option — a script never hangs on a prompt nobody sees.
struct TerminalPairingDelegate: PairingDelegate {
    let options: PairingOptions
    /// Standard input's lines, when the user can be asked; `nil` otherwise.
    let terminal: CentralInputs?
    /// Passkeys shown also as JSON events on standard output (`--json`).
    let json: Bool

    func acceptPairing(from peer: BluetoothAddress, features: PairingFeatures) async -> Bool { true }

    func confirmNumber(_ number: UInt32, for peer: BluetoothAddress) async -> Bool {
        let digits = Self.sixDigits(number)
        if json { emit(["event": "confirm-number", "address": .string(peer.description), "number": .string(digits)]) }
        if options.assumeYes {
            Output.progress("\(peer) shows \(digits)? yes (--yes)")
            return true
        }
        guard let answer = await ask("Does the device \(peer) show \(digits)? [y/N] ") else {
            Output.progress("refused pairing with \(peer): confirming its number \(digits) needs --yes, or a terminal to answer on")
            return false
        }
        return ["y", "yes"].contains(answer.lowercased())
    }

    func displayPasskey(_ passkey: UInt32, for peer: BluetoothAddress) async {
        let digits = Self.sixDigits(passkey)
        Output.progress("passkey for \(peer): \(digits) (type it on the device)")
        if json { emit(["event": "passkey", "address": .string(peer.description), "passkey": .string(digits)]) }
    }

    func enterPasskey(for peer: BluetoothAddress) async -> UInt32? {
        if let passkey = options.passkey { return passkey }
        while true {
            guard let answer = await ask("Passkey shown by \(peer): ") else {
                Output.progress("cancelled pairing with \(peer): it shows a passkey; give it with --passkey, or run on a terminal")
                return nil
            }
            if answer.isEmpty { return nil }
            if answer.count <= 6, answer.allSatisfy(\.isASCIIDigitCharacter), let passkey = UInt32(answer) { return passkey }
            Output.progress("a passkey is six digits (000000 to 999999), not '\(answer)'")
        }
    }

    /// Asks on the terminal and waits for a line; `nil` when nobody can answer (no
    /// terminal, end of input, Ctrl-C).
    private func ask(_ question: String) async -> String? {
        guard let terminal else { return nil }
        return await terminal.answer(question).map { String($0.trimmingWhitespace) }
    }

    private func emit(_ object: JSONValue) {
        Output.print(object.serialized())
        Output.flush()
    }

    static func sixDigits(_ n: UInt32) -> String {
        let text = String(n)
        return String(repeating: "0", count: max(0, 6 - text.count)) + text
    }
}
