import SwiftATTSMP
import Testing
@testable import SwiftATTSecurity

/// Core 5.4 Vol 3 Part H §2.3.5.1, Table 2.8, written out as the spec prints it.
@Suite("Association model")
struct PairingMethodTests {
    // Rows: initiator; columns: responder; order DisplayOnly, DisplayYesNo, KeyboardOnly,
    // NoInputNoOutput, KeyboardDisplay. J = Just Works, N = Numeric Comparison,
    // I = Passkey, initiator displays; R = Passkey, responder displays; B = both type.
    static let legacyTable = [
        "J J I J I",
        "J J I J I",
        "R R B J R",
        "J J J J J",
        "R R I J I",
    ]
    static let secureConnectionsTable = [
        "J J I J I",
        "J N I J N",
        "R R B J R",
        "J J J J J",
        "R N I J N",
    ]
    static let order: [IOCapability] = [.displayOnly, .displayYesNo, .keyboardOnly, .noInputNoOutput, .keyboardDisplay]

    static func method(_ letter: Character) -> PairingMethod {
        switch letter {
        case "N": return .numericComparison
        case "I": return .passkeyEntry(initiatorInputs: false, responderInputs: true)
        case "R": return .passkeyEntry(initiatorInputs: true, responderInputs: false)
        case "B": return .passkeyEntry(initiatorInputs: true, responderInputs: true)
        default: return .justWorks
        }
    }

    @Test("Table 2.8, with MITM requested", arguments: [false, true])
    func table(_ sc: Bool) {
        let table = sc ? Self.secureConnectionsTable : Self.legacyTable
        for (row, i) in Self.order.enumerated() {
            let letters = table[row].split(separator: " ").map { $0.first! }
            for (column, r) in Self.order.enumerated() {
                let request = PairingFeatures(ioCapability: i, authenticationRequirements: [.bonding, .mitm])
                let response = PairingFeatures(ioCapability: r, authenticationRequirements: [.bonding])
                #expect(PairingMethod.select(initiator: request, responder: response, secureConnections: sc)
                        == Self.method(letters[column]), "\(i) → \(r)")
            }
        }
    }

    @Test("Without MITM on either side every pair is Just Works; OOB wins when present")
    func flags() {
        for i in Self.order {
            for r in Self.order {
                let a = PairingFeatures(ioCapability: i, authenticationRequirements: [.bonding])
                let b = PairingFeatures(ioCapability: r, authenticationRequirements: [.bonding])
                #expect(PairingMethod.select(initiator: a, responder: b, secureConnections: true) == .justWorks)
                var withOOB = a
                withOOB.oobDataPresent = true
                // Secure Connections: either flag; legacy: both.
                #expect(PairingMethod.select(initiator: withOOB, responder: b, secureConnections: true) == .outOfBand)
                #expect(PairingMethod.select(initiator: withOOB, responder: b, secureConnections: false) == .justWorks)
            }
        }
    }
}
