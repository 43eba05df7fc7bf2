import SwiftATTCore
import SwiftATTHCI
import SwiftATTHost
import SwiftATTLoopback
import Testing
import TestSupport

/// `Central.connect` to a device that never answers: the attempt ends by timeout or by
/// the caller's cancellation, and either way the controller is told to stop trying
/// (LE Create Connection Cancel), so the next connection can start.
@Suite struct ConnectAttemptTests {
    static let absent = BluetoothAddress(0xC0DE_0000_0001, kind: .random)

    @Test func aTimedOutAttemptIsCancelledAtTheController() async throws {
        let link = LoopbackLink()
        let controller = link.addController()
        let central = try await Central.start(transport: controller.specification)
        await #expect(throws: CentralError.timedOut(.milliseconds(200))) {
            _ = try await central.connect(Self.absent, timeout: .milliseconds(200))
        }
        #expect(controller.commandCount(LECreateConnectionCancel.opcode) == 1)
        await central.close()
    }

    @Test func aCancelledCallCancelsTheAttemptAndSaysSo() async throws {
        let link = LoopbackLink()
        let controller = link.addController()
        let central = try await Central.start(transport: controller.specification)
        let attempt = Task { try await central.connect(Self.absent, timeout: .seconds(60)) }
        // Cancel once the attempt is with the controller. Nothing announces a command's
        // arrival at a loopback controller, so its count is watched.
        try await eventually("LE Create Connection at the controller", within: .seconds(5)) {
            controller.commandCount(LECreateConnection.opcode) > 0
        }
        #expect(controller.commandCount(LECreateConnection.opcode) == 1)
        attempt.cancel()
        await #expect(throws: CentralError.cancelled) { _ = try await attempt.value }
        #expect(controller.commandCount(LECreateConnectionCancel.opcode) == 1)
        // The controller is free for another attempt.
        await #expect(throws: CentralError.timedOut(.milliseconds(100))) {
            _ = try await central.connect(Self.absent, timeout: .milliseconds(100))
        }
        await central.close()
    }
}
