import SwiftATTL2CAP
import Testing

@Suite struct SignalingTests {
    /// Connection Parameter Update Request (id 7): interval 24–40, latency 0, timeout
    /// 200 (2 s) → accepted, with the parameters for LE Connection Update.
    @Test func centralAcceptsReasonableParameters() {
        let request: [UInt8] = [0x12, 0x07, 0x08, 0x00, 0x18, 0x00, 0x28, 0x00, 0x00, 0x00, 0xC8, 0x00]
        let outcome = LESignalingResponder.handle(request[...], isCentral: true)
        #expect(outcome.reply == [0x13, 0x07, 0x02, 0x00, 0x00, 0x00])
        #expect(outcome.acceptedParameters == ConnectionParameterUpdateRequest(intervalMin: 24, intervalMax: 40, peripheralLatency: 0, timeoutMultiplier: 200))
    }

    /// Timeout too short for the latency: rejected (result 0x0001), nothing to apply.
    @Test func centralRejectsImpossibleParameters() {
        let request: [UInt8] = [0x12, 0x09, 0x08, 0x00, 0x18, 0x00, 0x28, 0x00, 0x10, 0x00, 0x0A, 0x00]
        let outcome = LESignalingResponder.handle(request[...], isCentral: true)
        #expect(outcome.reply == [0x13, 0x09, 0x02, 0x00, 0x01, 0x00])
        #expect(outcome.acceptedParameters == nil)
    }

    /// A peripheral does not accept the request: Command Reject, not understood.
    @Test func peripheralRejectsTheRequest() {
        let request: [UInt8] = [0x12, 0x03, 0x08, 0x00, 0x18, 0x00, 0x28, 0x00, 0x00, 0x00, 0xC8, 0x00]
        #expect(LESignalingResponder.handle(request[...], isCentral: false).reply == [0x01, 0x03, 0x02, 0x00, 0x00, 0x00])
    }

    /// A code that is not an LE command (BR/EDR's Information Request, 0x0A; a code no
    /// spec defines): Command Reject, not understood, with the request's identifier.
    @Test(arguments: [UInt8(0x00), 0x02, 0x0A, 0x11, 0x1B, 0xFF])
    func unknownCommandsAreRejected(_ code: UInt8) {
        let request: [UInt8] = [code, 0x21, 0x02, 0x00, 0x01, 0x00]
        let outcome = LESignalingResponder.handle(request[...], isCentral: true)
        #expect(outcome.reply == [0x01, 0x21, 0x02, 0x00, 0x00, 0x00])
        #expect(outcome.malformed == .unknownCode(code))
    }

    @Test func responsesAndRejectsNeedNoAnswer() {
        #expect(LESignalingResponder.handle([0x13, 0x01, 0x02, 0x00, 0x00, 0x00], isCentral: false).reply == nil)
        #expect(LESignalingResponder.handle([0x01, 0x01, 0x02, 0x00, 0x00, 0x00], isCentral: true).reply == nil)
    }

    @Test func malformedFramesAreDroppedWithAReason() {
        #expect(LESignalingResponder.handle([0x12, 0x01], isCentral: true).dropped == .truncated(have: 2))
        #expect(LESignalingResponder.handle([0x12, 0x01, 0x08, 0x00, 0x00], isCentral: true).dropped == .lengthMismatch(declared: 8, have: 1))
        // A parameter update with the wrong data length is rejected, not applied.
        let short: [UInt8] = [0x12, 0x05, 0x02, 0x00, 0x18, 0x00]
        #expect(LESignalingResponder.handle(short[...], isCentral: true).reply == [0x01, 0x05, 0x02, 0x00, 0x00, 0x00])
    }
}
