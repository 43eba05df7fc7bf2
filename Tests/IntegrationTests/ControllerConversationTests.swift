import BenchSupport
import SwiftATTCore
import SwiftATTHCI
import SwiftATTHost
import Testing
import SwiftATTTransport

/// The Swift HCI layer against Bumble's virtual controllers over TCP.
@Suite(.serialized) struct ControllerConversationTests {
    @Test func resetAndReadAddress() async throws {
        let bench = try await BumbleBench(controllers: 2)
        defer { bench.stop() }
        let controller = try await Controller.open(try TransportSpecification(parsing: bench.transports[1]))
        _ = try await controller.send(Reset())
        let address = try await controller.send(ReadBDADDR()).address
        // controllers.py gives controller i the public address F0:F0:F0:F0:00:0(i+1).
        #expect(address.description == "F0:F0:F0:F0:00:02")
        _ = try await controller.send(LESetRandomAddress(randomAddress: BluetoothAddress(0xC0_5A_17_00_00_01, kind: .random)))
        await controller.close()
    }

    /// BENCH.md quirk 1: some commands are never answered. The command fails with a
    /// typed timeout naming it, its credit comes back, and the next command works.
    @Test func unansweredCommandTimesOutAndFreesTheCredit() async throws {
        let bench = try await BumbleBench(controllers: 1)
        defer { bench.stop() }
        let controller = try await Controller.open(try TransportSpecification(parsing: bench.transports[0]))
        // LE Encrypt (0x2017) with a 32-byte key+plaintext: Bumble never answers it.
        let encrypt = HCICommandPacket(opcode: HCIOpcode(ogf: 0x08, ocf: 0x0017), parameters: ArraySlice(repeating: 0, count: 32))
        do {
            _ = try await controller.exchange(encrypt, timeout: .milliseconds(300))
            Issue.record("LE Encrypt was answered; the bench quirk this test relies on is gone")
        } catch {
            #expect(error == .hci(.commandTimedOut(HCIOpcode(ogf: 0x08, ocf: 0x0017), .milliseconds(300))))
        }
        let address = try await controller.send(ReadBDADDR()).address
        #expect(address.description == "F0:F0:F0:F0:00:01")
        await controller.close()
    }

    /// What Bumble's controller (0.0.236) does with the resolving-list commands, as
    /// `Controller+RadioStart` says: LL Privacy set and all nine listed; Add, Clear, Read
    /// Resolving List Size (8), Set Address Resolution Enable, Set RPA Timeout and Set
    /// Privacy Mode answered with Success; Remove and both Read Resolvable Address never
    /// answered (BENCH.md quirk 1), each failing with a timeout that frees the credit.
    @Test func bumblesControllerAndTheResolvingListCommands() async throws {
        let bench = try await BumbleBench(controllers: 1)
        defer { bench.stop() }
        let controller = try await Controller.open(try TransportSpecification(parsing: bench.transports[0]))
        let info = try await controller.start()
        #expect(info.leFeatures.contains(.llPrivacy))
        #expect(info.resolvingListSize == 8)
        #expect(controller.addressResolution == .controller(capacity: 8))
        let peer = BluetoothAddress(0xC0B0_0000_0021, kind: .random)
        let succeeding: [HCICommandPacket] = [
            LESetAddressResolutionEnable(addressResolutionEnable: false).packet, LEClearResolvingList().packet,
            LEAddDeviceToResolvingList(peerIdentityAddress: peer, peerIdentityResolvingKey: 0x1F1E, localIdentityResolvingKey: 0x0F0E).packet,
            LESetPrivacyMode(peerIdentityAddress: peer, privacyMode: .device).packet,
            LESetResolvablePrivateAddressTimeout(rpaTimeout: 900).packet,
            LESetAddressResolutionEnable(addressResolutionEnable: true).packet,
        ]
        for packet in succeeding {
            let answer = try await controller.exchange(packet, timeout: .seconds(1))
            #expect(Self.completeStatus(answer) == .success, "\(packet.opcode)")
        }
        for packet in [LERemoveDeviceFromResolvingList(peerIdentityAddress: peer).packet,
                       LEReadPeerResolvableAddress(peerIdentityAddress: peer).packet,
                       LEReadLocalResolvableAddress(peerIdentityAddress: peer).packet] {
            await #expect(throws: ControllerError.hci(.commandTimedOut(packet.opcode, .milliseconds(300)))) {
                _ = try await controller.exchange(packet, timeout: .milliseconds(300))
            }
        }
        // The credit came back: the list still answers.
        #expect(Self.completeStatus(try await controller.exchange(LEClearResolvingList().packet)) == .success)
        await controller.close()
    }

    static func completeStatus(_ answer: HCICommandAnswer) -> HCIStatus? {
        if case let .complete(complete) = answer { return complete.status }
        return nil
    }

    @Test func closingFailsPendingWork() async throws {
        let bench = try await BumbleBench(controllers: 1)
        defer { bench.stop() }
        let controller = try await Controller.open(try TransportSpecification(parsing: bench.transports[0]))
        await controller.close()
        await #expect(throws: ControllerError.closed) { _ = try await controller.send(ReadBDADDR()) }
    }

    /// The controller process dies: the host reports a transport error, nothing hangs.
    @Test func controllerVanishing() async throws {
        let bench = try await BumbleBench(controllers: 1)
        let controller = try await Controller.open(try TransportSpecification(parsing: bench.transports[0]))
        _ = try await controller.send(ReadBDADDR())
        bench.stop()
        #expect(await Self.failureOnceGone(controller) == .transport(.closed(bench.transports[0])))
    }

    /// The error a command fails with once the loop has noticed, on its own, that the
    /// controller's process is gone: commands until one fails with a transport error
    /// (50 at most, 200 ms each), and the last error.
    static func failureOnceGone(_ controller: Controller) async -> ControllerError? {
        var lastError: ControllerError?
        for _ in 0..<50 {
            do {
                _ = try await controller.send(ReadBDADDR(), timeout: .milliseconds(200))
            } catch {
                lastError = error
                if case .transport = error { break }
            }
        }
        return lastError
    }

    /// Two controllers on one `HostEventLoop` thread: the one whose process dies stops
    /// with a transport error; the other goes on answering on the same thread.
    @Test func aControllerVanishingStopsOnlyItsOwnHostOnASharedLoop() async throws {
        let doomed = try await BumbleBench(controllers: 1)
        let survivor = try await BumbleBench(controllers: 1)
        defer { survivor.stop() }
        let loop = try HostEventLoop()
        let first = try await Controller.open(try TransportSpecification(parsing: doomed.transports[0]), on: loop)
        let second = try await Controller.open(try TransportSpecification(parsing: survivor.transports[0]), on: loop)
        _ = try await first.send(ReadBDADDR())
        _ = try await second.send(ReadBDADDR())
        doomed.stop()
        #expect(await Self.failureOnceGone(first) == .transport(.closed(doomed.transports[0])))
        _ = try await second.send(ReadBDADDR())
        await second.close()
        await #expect(throws: ControllerError.closed) { _ = try await second.send(ReadBDADDR()) }
    }

    @Test func connectionRefusedIsATypedTransportError() async throws {
        let port = BumbleBench.freePorts(1)[0]
        await #expect(throws: ControllerError.self) {
            _ = try await Controller.open(try TransportSpecification(parsing: "tcp:127.0.0.1:\(port)"))
        }
    }
}
