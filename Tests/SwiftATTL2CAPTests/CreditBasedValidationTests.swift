import SwiftATTCore
import SwiftATTL2CAP
import Testing

/// The policy step after decoding: each credit-based command's values against the ranges
/// of Core 5.4 Vol 3 Part A §4.22–4.28, the error naming the field, and the answer the
/// spec gives for it.
@Suite("Credit-based channels: ranges and validation")
struct CreditBasedValidationTests {
    /// `validate()` of whichever credit-based command this is.
    static func validate(_ command: LESignalingCommand) -> CreditBasedParameterError? {
        do throws(CreditBasedParameterError) {
            switch command {
            case let .leCreditBasedConnectionRequest(c): try c.validate()
            case let .leCreditBasedConnectionResponse(c): try c.validate()
            case let .flowControlCreditIndication(c): try c.validate()
            case let .creditBasedConnectionRequest(c): try c.validate()
            case let .creditBasedConnectionResponse(c): try c.validate()
            case let .creditBasedReconfigureRequest(c): try c.validate()
            default: break
            }
        } catch {
            return error
        }
        return nil
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let command: LESignalingCommand
        let field: CreditBasedParameterError.Field?
        let value: UInt16
        let allowed: ClosedRange<UInt16>
        var testDescription: String { name }

        init(_ name: String, _ command: LESignalingCommand, _ field: CreditBasedParameterError.Field? = nil,
             _ value: UInt16 = 0, _ allowed: ClosedRange<UInt16> = 0...0) {
            self.name = name
            self.command = command
            self.field = field
            self.value = value
            self.allowed = allowed
        }

        var expected: CreditBasedParameterError? {
            field.map { CreditBasedParameterError(code: command.code, field: $0, value: value, allowed: allowed) }
        }
    }

    static func le(spsm: SPSM = 0x0080, cid: UInt16 = 0x0040, mtu: UInt16 = 23, mps: UInt16 = 23, credits: UInt16 = 0) -> LESignalingCommand {
        .leCreditBasedConnectionRequest(.init(spsm: spsm, sourceCID: cid, mtu: mtu, mps: mps, initialCredits: credits))
    }

    static func ecfc(spsm: SPSM = .enhancedATT, mtu: UInt16 = 64, mps: UInt16 = 64, cids: [UInt16] = [0x40]) -> LESignalingCommand {
        .creditBasedConnectionRequest(.init(spsm: spsm, mtu: mtu, mps: mps, initialCredits: 0, sourceCIDs: cids))
    }

    static let cases: [Case] = [
        Case("LE request at the minimum", le()),
        Case("LE request at the maximum", le(spsm: 0x00FF, cid: 0x007F, mtu: 0xFFFF, mps: 0xFFFD, credits: 0xFFFF)),
        Case("LE request: SPSM 0x0000", le(spsm: 0x0000), .spsm, 0x0000, 0x0001...0x00FF),
        Case("LE request: SPSM 0x0100", le(spsm: 0x0100), .spsm, 0x0100, 0x0001...0x00FF),
        Case("LE request: Source CID 0x003F", le(cid: 0x003F), .sourceCID, 0x003F, 0x0040...0x007F),
        Case("LE request: Source CID 0x0080", le(cid: 0x0080), .sourceCID, 0x0080, 0x0040...0x007F),
        Case("LE request: MTU 22", le(mtu: 22), .mtu, 22, 23...0xFFFF),
        Case("LE request: MPS 22", le(mps: 22), .mps, 22, 23...0xFFFD),
        Case("LE request: MPS 65534", le(mps: 0xFFFE), .mps, 0xFFFE, 23...0xFFFD),
        Case("LE request: SPSM checked before MTU", le(spsm: 0, mtu: 0), .spsm, 0, 0x0001...0x00FF),
        Case("LE response: success", .leCreditBasedConnectionResponse(.init(destinationCID: 0x41, mtu: 23, mps: 23, initialCredits: 0, result: .success))),
        Case("LE response: success with CID 0x0000", .leCreditBasedConnectionResponse(.init(destinationCID: 0, mtu: 23, mps: 23, initialCredits: 0, result: .success)),
             .destinationCID, 0, 0x0040...0x007F),
        Case("LE response: success with MTU 22", .leCreditBasedConnectionResponse(.init(destinationCID: 0x41, mtu: 22, mps: 23, initialCredits: 0, result: .success)),
             .mtu, 22, 23...0xFFFF),
        Case("LE response: a refusal's zeros are not checked", .leCreditBasedConnectionResponse(.refused(.noResourcesAvailable))),
        Case("credit indication", .flowControlCreditIndication(.init(cid: 0x40, credits: 1))),
        Case("credit indication: 0 credits", .flowControlCreditIndication(.init(cid: 0x40, credits: 0)), .credits, 0, 1...0xFFFF),
        Case("credit indication: the ATT channel", .flowControlCreditIndication(.init(cid: 0x04, credits: 1)), .cid, 0x0004, 0x0040...0x007F),
        Case("ECFC request at the minimum", ecfc()),
        Case("ECFC request: five CIDs", ecfc(mtu: 0xFFFF, mps: 0xFFFD, cids: [0x40, 0x41, 0x42, 0x43, 0x7F])),
        Case("ECFC request: MTU 63", ecfc(mtu: 63), .mtu, 63, 64...0xFFFF),
        Case("ECFC request: MTU 23 (enough for LE mode, not ECFC)", ecfc(mtu: 23), .mtu, 23, 64...0xFFFF),
        Case("ECFC request: MPS 63", ecfc(mps: 63), .mps, 63, 64...0xFFFD),
        Case("ECFC request: SPSM 0x0000", ecfc(spsm: 0), .spsm, 0, 0x0001...0x00FF),
        Case("ECFC request: the third CID out of range", ecfc(cids: [0x40, 0x41, 0x80]), .sourceCID, 0x0080, 0x0040...0x007F),
        Case("ECFC request: MPS checked before CIDs", ecfc(mps: 0, cids: [0x00]), .mps, 0, 64...0xFFFD),
        Case("ECFC response: some refused",
             .creditBasedConnectionResponse(.init(mtu: 64, mps: 64, initialCredits: 1, result: .insufficientResources, destinationCIDs: [0x40, 0]))),
        Case("ECFC response: success with MPS 63",
             .creditBasedConnectionResponse(.init(mtu: 64, mps: 63, initialCredits: 1, result: .success, destinationCIDs: [0x40])), .mps, 63, 64...0xFFFD),
        Case("ECFC response: success with CID 0x0080",
             .creditBasedConnectionResponse(.init(mtu: 64, mps: 64, initialCredits: 1, result: .success, destinationCIDs: [0x80])),
             .destinationCID, 0x0080, 0x0040...0x007F),
        Case("ECFC response: all refused, zeros not checked", .creditBasedConnectionResponse(.refused(.spsmNotSupported, count: 5))),
        Case("ECFC response: pending, zeros not checked", .creditBasedConnectionResponse(.refused(.pendingAuthentication, count: 2))),
        Case("reconfigure request", .creditBasedReconfigureRequest(.init(mtu: 64, mps: 64, destinationCIDs: [0x40]))),
        Case("reconfigure request: MTU 63", .creditBasedReconfigureRequest(.init(mtu: 63, mps: 64, destinationCIDs: [0x40])), .mtu, 63, 64...0xFFFF),
        Case("reconfigure request: CID 0x0005", .creditBasedReconfigureRequest(.init(mtu: 64, mps: 64, destinationCIDs: [0x40, 0x05])),
             .destinationCID, 0x0005, 0x0040...0x007F),
    ]

    @Test("values against their ranges", arguments: cases)
    func validation(_ c: Case) {
        #expect(Self.validate(c.command) == c.expected)
    }

    @Test("every golden vector of a credit-based command is within range", arguments: SignalingVector.all)
    func goldenVectorsAreValid(_ v: SignalingVector) {
        #expect(Self.validate(v.command) == nil)
    }

    @Test("the answer the spec gives for each bad field")
    func answers() {
        func error(_ code: LESignalingCode, _ field: CreditBasedParameterError.Field) -> CreditBasedParameterError {
            CreditBasedParameterError(code: code, field: field, value: 0, allowed: 1...1)
        }
        #expect(error(.leCreditBasedConnectionRequest, .spsm).leCreditBasedConnectionResult == .spsmNotSupported)
        #expect(error(.leCreditBasedConnectionRequest, .sourceCID).leCreditBasedConnectionResult == .invalidSourceCID)
        #expect(error(.leCreditBasedConnectionRequest, .mtu).leCreditBasedConnectionResult == .unacceptableParameters)
        #expect(error(.leCreditBasedConnectionRequest, .mps).leCreditBasedConnectionResult == .unacceptableParameters)
        #expect(error(.creditBasedConnectionRequest, .spsm).creditBasedConnectionResult == .spsmNotSupported)
        #expect(error(.creditBasedConnectionRequest, .sourceCID).creditBasedConnectionResult == .invalidSourceCID)
        #expect(error(.creditBasedConnectionRequest, .mtu).creditBasedConnectionResult == .unacceptableParameters)
        #expect(error(.creditBasedReconfigureRequest, .mps).creditBasedReconfigureResult == .otherUnacceptableParameters)
        #expect(error(.creditBasedReconfigureRequest, .destinationCID).creditBasedReconfigureResult == .invalidDestinationCID)
    }

    @Test("messages name the command, field, value and range")
    func messages() {
        #expect(CreditBasedParameterError(code: .leCreditBasedConnectionRequest, field: .mps, value: 20, allowed: 23...65533).description
            == "LE Credit Based Connection Request (0x14): MPS 20 is outside 23–65533 (Core 5.4 Vol 3 Part A §4.22)")
        #expect(CreditBasedParameterError(code: .creditBasedConnectionRequest, field: .sourceCID, value: 0x80, allowed: 0x40...0x7F).description
            == "Credit Based Connection Request (0x17): Source CID 0x0080 is outside 0x0040–0x007f (Core 5.4 Vol 3 Part A §4.25)")
    }

    @Test("SPSM ranges, the dynamic CID range and the modes' sizes")
    func constants() {
        #expect(SPSM.fixedRange == 0x0001...0x007F && SPSM.dynamicRange == 0x0080...0x00FF)
        #expect(SPSM.enhancedATT.rawValue == 0x0027 && SPSM.enhancedATT.isFixed && !SPSM.enhancedATT.isDynamic)
        #expect(SPSM(0x0080).isDynamic && SPSM(0x00FF).isDynamic && SPSM(0x00FF).isValid)
        #expect(!SPSM(0x0000).isValid && !SPSM(0x0100).isValid && !SPSM(0x0100).isDynamic)
        #expect(SPSM.enhancedATT.description == "SPSM 0x0027")
        #expect(L2CAPChannelIdentifier.leDynamicRange == 0x0040...0x007F)
        #expect(!L2CAPChannelIdentifier.leDynamicRange.contains(L2CAPChannelIdentifier.attribute))
        #expect(CreditBasedFlowControlMode.leCreditBased.mtuRange.lowerBound == 23)
        #expect(CreditBasedFlowControlMode.leCreditBased.mpsRange == 23...65533)
        #expect(CreditBasedFlowControlMode.enhancedCreditBased.mtuRange.lowerBound == 64)
        #expect(CreditBasedFlowControlMode.enhancedCreditBased.mpsRange == 64...65533)
        #expect(CreditBasedFlowControlMode.creditIndicationRange == 1...65535)
        #expect(CreditBasedConnectionRequest.sourceCIDCounts == 1...5 && CreditBasedReconfigureRequest.destinationCIDCounts == 1...5)
    }
}
