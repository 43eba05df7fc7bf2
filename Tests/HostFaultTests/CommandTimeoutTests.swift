import SwiftATTHCI
import SwiftATTHost
import SwiftATTLoopback
import Testing

/// A command the controller never answers (BENCH.md quirk 1; Bumble's own test is in
/// ControllerConversationTests): it fails with a timeout naming it, the credit it held
/// comes back, and the host goes on working. Here without Bumble, in milliseconds.
@Suite struct CommandTimeoutTests {
    @Test func anUnansweredCommandTimesOutNamingItAndTheHostGoesOn() async throws {
        let link = LoopbackLink()
        let (peripheral, _) = try await HardwareErrorTests.peripheral(on: link)
        let controller = link.addController()
        let central = try await Central.start(transport: controller.specification)
        controller.leaveUnanswered([LESetPHY.opcode])
        do {
            _ = try await central.controller.send(LESetPHY(connectionHandle: 1, txPHYs: .le2M, rxPHYs: .le2M), timeout: .milliseconds(200))
            Issue.record("LE Set PHY was answered")
        } catch {
            #expect(error == .hci(.commandTimedOut(LESetPHY.opcode, .milliseconds(200))))
            #expect(error.description.hasPrefix("LE Set PHY (0x2032): no Command Complete or Command Status"), "\(error)")
        }
        #expect(controller.commandCount(LESetPHY.opcode) == 1)
        // The credit is back: connecting sends commands, and GATT works.
        let peer = try await central.connect(peripheral.info.randomAddress)
        #expect(try await peer.read(handle: try HardwareErrorTests.labelHandle(peripheral)) == FaultFixture.labelText)
        await central.close()
        await peripheral.close()
    }
}
