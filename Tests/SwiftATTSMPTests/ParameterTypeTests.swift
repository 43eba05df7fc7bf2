import SwiftATTSMP
import Testing

/// The parameter types' values are the spec's: codes and lengths (§3.3), AuthReq and key
/// distribution bits (§3.5.1, §3.6.1), failure reasons (§3.5.5 Table 3.7).
@Suite("Parameter types")
struct ParameterTypeTests {
    @Test("codes 0x01–0x0E, each with its fixed length")
    func codes() {
        #expect(SMPCode.allCases.map(\.rawValue) == Array(0x01...0x0E))
        let lengths: [SMPCode: Int] = [
            .pairingRequest: 7, .pairingResponse: 7, .pairingConfirm: 17, .pairingRandom: 17, .pairingFailed: 2,
            .encryptionInformation: 17, .centralIdentification: 11, .identityInformation: 17,
            .identityAddressInformation: 8, .signingInformation: 17, .securityRequest: 2, .pairingPublicKey: 65,
            .pairingDHKeyCheck: 17, .pairingKeypressNotification: 2,
        ]
        for code in SMPCode.allCases { #expect(code.pduLength == lengths[code], "\(code)") }
        #expect(SMPCode.pairingDHKeyCheck.description == "Pairing DHKey Check (0x0d)")
        #expect(Set(SMPCode.allCases.map(\.name)).count == SMPCode.allCases.count)
    }

    @Test("AuthReq bits, Bonding_Flags and the reserved bits")
    func authenticationRequirements() {
        #expect(AuthenticationRequirements.bonding.rawValue == 0x01)
        #expect(AuthenticationRequirements.mitm.rawValue == 0x04)
        #expect(AuthenticationRequirements.secureConnections.rawValue == 0x08)
        #expect(AuthenticationRequirements.keypress.rawValue == 0x10)
        #expect(AuthenticationRequirements.ct2.rawValue == 0x20)
        #expect(AuthenticationRequirements.reserved.rawValue == 0xC2)
        let defined: AuthenticationRequirements = [.bonding, .mitm, .secureConnections, .keypress, .ct2]
        #expect(defined.union(.reserved).rawValue == 0xFF && defined.intersection(.reserved).isEmpty)

        // Bonding_Flags 0b11 is reserved, though bit 0 reads as .bonding.
        let reservedBonding = AuthenticationRequirements(rawValue: 0b11)
        #expect(reservedBonding.contains(.bonding) && reservedBonding.hasReservedBondingFlags)
        #expect(AuthenticationRequirements(rawValue: 0b10).hasReservedBondingFlags)
        #expect(!AuthenticationRequirements.bonding.hasReservedBondingFlags)
        #expect(AuthenticationRequirements(rawValue: 0xFF).subtracting(.reserved) == defined)

        #expect(AuthenticationRequirements(rawValue: 0x0D).description == "Bonding, MITM, SC (0x0d)")
        #expect(AuthenticationRequirements([]).description == "No Bonding (0x00)")
        #expect(AuthenticationRequirements(rawValue: 0xC3).description == "Bonding_Flags reserved, RFU bits set (0xc3)")
    }

    @Test("key distribution bits")
    func keyDistribution() {
        #expect(KeyDistribution.encryptionKey.rawValue == 0x01)
        #expect(KeyDistribution.identityKey.rawValue == 0x02)
        #expect(KeyDistribution.signingKey.rawValue == 0x04)
        #expect(KeyDistribution.linkKey.rawValue == 0x08)
        #expect(KeyDistribution.reserved.rawValue == 0xF0)
        #expect(KeyDistribution([.encryptionKey, .identityKey]).description == "EncKey IdKey (0x03)")
        #expect(KeyDistribution([]).description == "<none> (0x00)")
    }

    @Test("Pairing Request's defaults")
    func defaults() {
        let f = PairingFeatures()
        #expect(f.ioCapability == .noInputNoOutput)
        #expect(!f.oobDataPresent)
        #expect(f.authenticationRequirements == [.bonding, .secureConnections])
        #expect(f.maximumEncryptionKeySize == 16)
        #expect(f.initiatorKeyDistribution == [.encryptionKey, .identityKey])
        #expect(f.responderKeyDistribution == [.encryptionKey, .identityKey])
        #expect(SMPPDU.pairingRequest(f).bytes == [0x01, 0x03, 0x00, 0x09, 0x10, 0x03, 0x03])
        #expect(PairingFeatures.encryptionKeySizes == 7...16)
    }

    @Test("IO capabilities and keypress types are 0x00–0x04")
    func smallEnumerations() {
        #expect(IOCapability.allCases.map(\.rawValue) == Array(0...4))
        #expect(KeypressNotificationType.allCases.map(\.rawValue) == Array(0...4))
        #expect(IOCapability.keyboardDisplay.description == "KeyboardDisplay")
        #expect(KeypressNotificationType.digitErased.description == "Passkey digit erased")
    }

    @Test("failure reasons 0x01–0x0F, each with a name and a sentence")
    func failureReasons() {
        #expect(PairingFailureReason.allCases.map(\.rawValue) == Array(0x01...0x0F))
        #expect(Set(PairingFailureReason.allCases.map(\.name)).count == 15)
        #expect(Set(PairingFailureReason.allCases.map(\.summary)).count == 15)
        for reason in PairingFailureReason.allCases {
            #expect(reason.description == "\(reason.name): \(reason.summary)")
            #expect(reason.summary.first?.isLowercase == true && reason.summary.last != ".", "\(reason)")
        }
        #expect(PairingFailureReason.confirmValueFailed.description == "Confirm Value Failed: the confirm value did not match")
        #expect(PairingFailureReason(rawValue: 0x0A) == .invalidParameters)
        #expect(PairingFailureReason(rawValue: 0x00) == nil && PairingFailureReason(rawValue: 0x10) == nil)
        // An Error, so a procedure can end by throwing it.
        let error: any Error = PairingFailureReason.repeatedAttempts
        #expect(error as? PairingFailureReason == .repeatedAttempts)
    }

    @Test("every decoding error field names its octet", arguments: SMPDecodingError.Field.allCases)
    func fieldOctets(_ field: SMPDecodingError.Field) {
        #expect((1...4).contains(field.octet))
        #expect(!field.description.isEmpty)
    }
}
