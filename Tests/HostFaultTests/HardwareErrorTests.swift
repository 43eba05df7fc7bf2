import SwiftATTPDU
import SwiftATTCore
import SwiftATTGATT
import SwiftATTHCI
import SwiftATTHost
import SwiftATTLoopback
import Testing
import TestSupport

/// A controller that reports a Hardware Error (Core 5.4 Vol 4 Part E §7.7.16): the host
/// fails everything pending with a typed error, forgets the links the controller lost,
/// resets it, runs its start-up sequence again and works afterwards. The loopback
/// controller fails on cue (`injectHardwareError`); Bumble's cannot.
@Suite struct HardwareErrorTests {
    /// A peripheral serving the fault database, advertising, on a new controller.
    static func peripheral(on link: LoopbackLink, readvertising: Readvertising = .default) async throws -> (Peripheral, LoopbackController) {
        let controller = link.addController()
        let peripheral = try await Peripheral.start(transport: controller.specification, database: try FaultFixture.database(),
                                                    readvertising: readvertising)
        try await peripheral.startAdvertising(data: FaultFixture.advertisement)
        return (peripheral, controller)
    }

    static func labelHandle(_ peripheral: Peripheral) throws -> UInt16 {
        try #require(peripheral.database.valueHandle(of: FaultFixture.label))
    }

    /// A central with a GATT read its peer never answers and a command its controller
    /// never answers: both fail with the hardware error, the host sends Reset, says so,
    /// and connects and reads again afterwards.
    @Test func pendingWorkFailsTheHostResetsAndWorksAgain() async throws {
        let link = LoopbackLink()
        let raw = try await RawPeer.start(link.addController())
        try await raw.advertise()
        let controller = link.addController()
        let central = try await Central.start(transport: controller.specification)
        let recoveries = central.controller.recoveries()
        let events = central.controller.events()
        let peer = try await central.connect(raw.address, exchangeMTU: false)
        try await raw.connectionComplete()

        let read = Task { try await peer.read(handle: 0x0003) }
        #expect(try await raw.nextATT("the Read Request") == ReadRequest(handle: 0x0003).encoded())
        controller.leaveUnanswered([LESetPHY.opcode])
        let setPHY = Task {
            try await central.controller.send(LESetPHY(connectionHandle: peer.handle, txPHYs: .le2M, rxPHYs: .le2M), timeout: .seconds(60))
        }
        try await eventually("the controller holds LE Set PHY") { controller.commandCount(LESetPHY.opcode) == 1 }
        let resets = controller.commandCount(Reset.opcode)

        controller.injectHardwareError(code: 0x42)
        await #expect(throws: ControllerError.hci(.hardwareError(0x42))) { _ = try await setPHY.value }
        await #expect(throws: GATTClientError.disconnected(.hardwareError(0x42))) { _ = try await read.value }
        #expect(try await first(recoveries) { $0 } == .hardwareError(0x42))
        let restarted = try await first(recoveries) { recovery -> ControllerInfo? in
            if case let .restarted(info) = recovery { return info }
            Issue.record("expected .restarted, got \(recovery)")
            return nil
        }
        // The same static random address: peers that knew this host still do.
        #expect(restarted?.randomAddress == central.info.randomAddress)
        #expect(controller.commandCount(Reset.opcode) == resets + 1)
        // The raw event reached `events()` too.
        #expect(try await first(events) { event -> UInt8? in
            if case let .hardwareError(e) = event { return e.hardwareCode }
            return nil
        } == 0x42)
        // The peer lost the link as a reset loses it: by supervision timeout.
        #expect(try await raw.disconnection() == .connectionTimeout)
        await #expect(throws: GATTClientError.self) { _ = try await peer.read(handle: 0x0003) }
        #expect(await peer.disconnection() == nil)

        // The host works again: a new connection, GATT reads.
        let (peripheral, _) = try await Self.peripheral(on: link)
        let again = try await central.connect(peripheral.info.randomAddress)
        #expect(try await again.read(handle: try Self.labelHandle(peripheral)) == FaultFixture.labelText)
        #expect(try await again.discoverDatabase().characteristics(uuid: FaultFixture.long.uuid).count == 1)
        await central.close()
        await peripheral.close()
        raw.close()
    }

    /// The peripheral's controller fails with a central connected: its events tell the
    /// story in order, the central's link ends, advertising resumes by itself, and a
    /// central connects and reads again.
    @Test func aPeripheralReportsTheFailureAndAdvertisesAgain() async throws {
        let link = LoopbackLink()
        let (peripheral, controller) = try await Self.peripheral(on: link)
        let events = peripheral.events()
        let central = try await Central.start(transport: link.addController().specification)
        let centralEvents = central.controller.events()
        _ = try await central.connect(peripheral.info.randomAddress)
        let handle = try #require(try await first(events) { event -> UInt16? in
            if case let .connected(handle, _) = event { return handle }
            return nil
        })
        // Advertising resumes after the connection (the default policy takes more).
        #expect(try await first(events) { event -> Bool? in
            if case .advertisingResumed = event { return true }
            return nil
        } == true)

        controller.injectHardwareError(code: 0x07)
        let story = try await collect(events) { event in
            if case .advertisingResumed = event { return true }
            return false
        }.compactMap { event -> String? in
            switch event {
            case let .controllerRecovery(.hardwareError(code)): return "hardware error \(code)"
            case let .disconnected(h, reason): return "disconnected \(h == handle ? "the central" : "?") \(reason)"
            case .controllerRecovery(.restarted): return "restarted"
            case let .controllerRecovery(other): return "\(other)"
            case .advertisingResumed: return "advertising"
            default: return nil
            }
        }
        #expect(story == ["hardware error 7", "disconnected the central \(HCIStatus.hardwareFailure)", "restarted", "advertising"])
        #expect(peripheral.isAdvertising)
        // The central's end saw the link time out.
        #expect(try await first(centralEvents) { event -> HCIStatus? in
            if case let .disconnectionComplete(d) = event { return d.reason }
            return nil
        } == .connectionTimeout)

        let again = try await central.connect(peripheral.info.randomAddress)
        #expect(try await again.read(handle: try Self.labelHandle(peripheral)) == FaultFixture.labelText)
        await central.close()
        await peripheral.close()
    }

    /// Advertising that was on when the controller failed comes back even when the
    /// readvertising policy is `.off`: the policy is about connections, and no central
    /// connected.
    @Test func advertisingComesBackWhateverThePolicy() async throws {
        let link = LoopbackLink()
        let (peripheral, controller) = try await Self.peripheral(on: link, readvertising: .off)
        let events = peripheral.events()
        controller.injectHardwareError(code: 0x01)
        let resumed = try await first(events) { event -> Bool? in
            if case .advertisingResumed = event { return true }
            return nil
        }
        #expect(resumed == true)
        let central = try await Central.start(transport: link.addController().specification)
        let peer = try await central.connect(peripheral.info.randomAddress)
        #expect(try await peer.read(handle: try Self.labelHandle(peripheral)) == FaultFixture.labelText)
        await central.close()
        await peripheral.close()
    }

    /// A peripheral whose `updateValue` was refused (a subscriber stopped reading) hears
    /// `.readyToUpdate` when the failure ends that subscriber's link: it is not left
    /// waiting for credits that will never come.
    @Test func aRefusedUpdateIsReleasedByTheFailure() async throws {
        let target = try await HostileCentralTarget.start()
        let events = target.peripheral.events()
        let configuration = try #require(target.peripheral.database.clientConfigurationHandle(of: FaultFixture.stream))
        #expect(try await target.raw.request([0x12] + le(configuration) + [0x01, 0x00]) == [0x13])
        target.raw.pauseReading()
        var sent = 0
        while target.peripheral.updateValue([UInt8(sent & 0xFF)], for: FaultFixture.stream) {
            sent += 1
            guard sent < 1000 else { Issue.record("updateValue never refused"); break }
        }
        // The loopback controller's 16 buffers, then the host's queue of 8.
        #expect(sent >= 16)
        target.controller.injectHardwareError(code: 0x20)
        #expect(try await first(events) { event -> Bool? in
            if case .readyToUpdate = event { return true }
            return nil
        } == true)
        target.raw.pauseReading(false)
        #expect(try await target.raw.disconnection() == .connectionTimeout)
        await target.stop()
    }

    /// A controller that does not come back (here it never answers Read Local Version
    /// Information after the reset): the restart fails with a typed error naming the
    /// command.
    @Test func aControllerThatDoesNotComeBackIsReported() async throws {
        let link = LoopbackLink()
        let (peripheral, controller) = try await Self.peripheral(on: link)
        let recoveries = peripheral.controller.recoveries()
        controller.leaveUnanswered([ReadLocalVersionInformation.opcode])
        controller.injectHardwareError(code: 0x0F)
        #expect(try await first(recoveries) { $0 } == .hardwareError(0x0F))
        #expect(try await first(recoveries) { $0 } == .restartFailed(.hci(.commandTimedOut(ReadLocalVersionInformation.opcode, .seconds(3)))))
        await peripheral.close()
    }

    /// A scan running when the controller fails scans again after the restart: a
    /// peripheral that starts advertising afterwards is found.
    @Test func aRunningScanGoesOnAfterTheRestart() async throws {
        let link = LoopbackLink()
        let (before, _) = try await Self.peripheral(on: link)
        let controller = link.addController()
        let central = try await Central.start(transport: controller.specification)
        let recoveries = central.controller.recoveries()
        let (addresses, sink) = AsyncStream<BluetoothAddress>.makeStream()
        let scanning = Task {
            for try await device in central.scan() { sink.yield(device.address) }
        }
        #expect(try await first(addresses) { $0 } == before.info.randomAddress)

        controller.injectHardwareError(code: 0x10)
        #expect(try await first(recoveries) { recovery -> Bool? in
            if case .restarted = recovery { return true }
            return nil
        } == true)
        let (after, _) = try await Self.peripheral(on: link)
        #expect(try await first(addresses) { $0 == after.info.randomAddress ? true : nil } == true)
        scanning.cancel()
        await central.close()
        await before.close()
        await after.close()
    }

    /// A controller a test drives by hand (no `start()`) is not reset behind its back:
    /// the pending command fails with the hardware error, the event is delivered, and
    /// the command credit is back for the test's own Reset.
    @Test func aControllerNobodyStartedIsLeftToItsUser() async throws {
        let link = LoopbackLink()
        let loopback = link.addController()
        let controller = try await Controller.open(loopback.specification)
        let events = controller.events()
        loopback.leaveUnanswered([LESetPHY.opcode])
        let setPHY = Task { try await controller.send(LESetPHY(connectionHandle: 1, txPHYs: .le2M, rxPHYs: .le2M), timeout: .seconds(60)) }
        try await eventually("the controller holds LE Set PHY") { loopback.commandCount(LESetPHY.opcode) == 1 }
        loopback.injectHardwareError(code: 0x99)
        await #expect(throws: ControllerError.hci(.hardwareError(0x99))) { _ = try await setPHY.value }
        #expect(try await first(events) { event -> UInt8? in
            if case let .hardwareError(e) = event { return e.hardwareCode }
            return nil
        } == 0x99)
        #expect(loopback.commandCount(Reset.opcode) == 0)
        _ = try await controller.send(Reset())
        #expect(loopback.commandCount(Reset.opcode) == 1)
        await controller.close()
    }
}
