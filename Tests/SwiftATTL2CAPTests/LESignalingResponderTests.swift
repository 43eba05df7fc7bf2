import SwiftATTCore
import SwiftATTL2CAP
import Testing

/// What a host with no credit-based channels and no SPSM registered answers to each
/// command (`LESignalingResponder`), as Core 5.4 Vol 3 Part A §4 has it.
@Suite("LE signaling responder: credit-based commands")
struct LESignalingResponderTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let request: String
        let reply: String?
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "LE Credit Based Connection Request: SPSM not supported",
             request: "14 21 0a00 8000 4000 1700 1700 0a00", reply: "15 21 0a00 0000 0000 0000 0000 0200"),
        Case(name: "LE Credit Based Connection Request for EATT's SPSM: not supported either",
             request: "14 22 0a00 2700 4000 0002 f700 0a00", reply: "15 22 0a00 0000 0000 0000 0000 0200"),
        Case(name: "LE Credit Based Connection Request: MTU 22 is unacceptable parameters",
             request: "14 23 0a00 8000 4000 1600 1700 0a00", reply: "15 23 0a00 0000 0000 0000 0000 0b00"),
        Case(name: "LE Credit Based Connection Request: a reserved SPSM is not supported",
             request: "14 24 0a00 0001 4000 1700 1700 0a00", reply: "15 24 0a00 0000 0000 0000 0000 0200"),
        Case(name: "LE Credit Based Connection Request: bad Source CID, but the SPSM is looked up first",
             request: "14 25 0a00 8000 0400 1700 1700 0a00", reply: "15 25 0a00 0000 0000 0000 0000 0200"),
        Case(name: "LE Credit Based Connection Request, truncated: Command Reject",
             request: "14 26 0800 8000 4000 1700 1700", reply: "01 26 0200 0000"),
        Case(name: "ECFC request, three channels: all refused, SPSM not supported",
             request: "17 31 0e00 2700 4000 4000 0300 4000 4100 4200", reply: "18 31 0e00 0000 0000 0000 0200 0000 0000 0000"),
        Case(name: "ECFC request, MPS 63: all refused, unacceptable parameters",
             request: "17 32 0a00 2700 4000 3f00 0300 4000", reply: "18 32 0a00 0000 0000 0000 0b00 0000"),
        Case(name: "ECFC request with six channels: all refused, invalid parameters, no CIDs",
             request: "17 33 1400 2700 4000 4000 0300 4000 4100 4200 4300 4400 4500", reply: "18 33 0800 0000 0000 0000 0c00"),
        Case(name: "ECFC request with no channel: invalid parameters",
             request: "17 34 0800 2700 4000 4000 0300", reply: "18 34 0800 0000 0000 0000 0c00"),
        Case(name: "Reconfigure request: no such channel",
             request: "19 41 0600 4000 4000 4000", reply: "1a 41 0200 0300"),
        Case(name: "Reconfigure request, MTU 63: other unacceptable parameters",
             request: "19 42 0600 3f00 4000 4000", reply: "1a 42 0200 0400"),
        Case(name: "Reconfigure request with no CID: Command Reject",
             request: "19 43 0400 4000 4000", reply: "01 43 0200 0000"),
        Case(name: "Disconnection Request: invalid CID, local then remote",
             request: "06 51 0400 4100 4000", reply: "01 51 0600 0200 4100 4000"),
        Case(name: "Disconnection Request, truncated: Command Reject", request: "06 52 0200 4100", reply: "01 52 0200 0000"),
        Case(name: "Disconnection Response: nothing", request: "07 53 0400 4100 4000", reply: nil),
        Case(name: "Flow Control Credit Indication: nothing", request: "16 54 0400 4000 0500", reply: nil),
        Case(name: "Flow Control Credit Indication with 0 credits: nothing", request: "16 55 0400 4000 0000", reply: nil),
        Case(name: "LE Credit Based Connection Response: nothing", request: "15 56 0a00 4100 0002 fb00 0800 0000", reply: nil),
        Case(name: "LE Credit Based Connection Response, reserved result: nothing", request: "15 57 0a00 0000 0000 0000 0000 0100", reply: nil),
        Case(name: "ECFC response: nothing", request: "18 58 0800 0000 0000 0000 0200", reply: nil),
        Case(name: "ECFC response, malformed: nothing", request: "18 59 0900 0000 0000 0000 0200 00", reply: nil),
        Case(name: "Reconfigure response: nothing", request: "1a 5a 0200 0000", reply: nil),
        Case(name: "Command Reject, reserved reason: nothing", request: "01 5b 0200 0900", reply: nil),
    ]

    @Test("answers", arguments: cases)
    func answers(_ c: Case) throws {
        for isCentral in [true, false] {
            let outcome = LESignalingResponder.handle(octets(c.request)[...], isCentral: isCentral)
            #expect(outcome.reply == c.reply.map(octets))
            #expect(outcome.acceptedParameters == nil)
            #expect(outcome.dropped == nil)
            #expect((outcome.command == nil) == (outcome.malformed != nil))
            if let reply = outcome.reply {
                // Every answer is a command this codec decodes, with the request's identifier.
                let frame = try LESignalingFrame(parsing: reply[...])
                #expect(frame.identifier == octets(c.request)[1])
                #expect(frame.encoded() == reply)
            }
        }
    }

    @Test("the decoded command is handed back")
    func commandHandedBack() {
        let outcome = LESignalingResponder.handle(octets("16 54 0400 4000 0500")[...], isCentral: false)
        #expect(outcome.command == .flowControlCreditIndication(.init(cid: 0x40, credits: 5)))
        let malformed = LESignalingResponder.handle(octets("06 52 0200 4100")[...], isCentral: false)
        #expect(malformed.malformed == .invalidLength(code: .disconnectionRequest, length: 2, allowed: [4]))
    }
}
