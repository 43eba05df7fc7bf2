#if canImport(Glibc)
import Glibc
#endif
import BenchSupport
import Foundation
import Testing

@Suite("swift-att info", .serialized)
struct InfoCommandTests {
    /// Against a Bumble virtual controller: the start-up sequence's findings, a capture
    /// written with --btsnoop that dump decodes, and the JSON form.
    @Test func readsABumbleController() async throws {
        let bench = try await BumbleBench(controllers: 1)
        defer { bench.stop() }
        let capture = FileManager.default.temporaryDirectory.appendingPathComponent("swift-att-info-\(getpid()).btsnoop")
        defer { try? FileManager.default.removeItem(at: capture) }
        let result = try await SwiftATTProcess.run(["info", "--transport", bench.transports[0], "--btsnoop", capture.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdoutLines.first == "Controller on \(bench.transports[0])")
        #expect(result.stdout.contains("Public address:  F0:F0:F0:F0:00:01"))
        #expect(result.stdout.contains("LE ACL buffers:  64 × 27 bytes"))
        #expect(result.stdout.contains("Advertising:     legacy"))

        let dump = try await SwiftATTProcess.run(["dump", capture.path])
        #expect(dump.status == 0)
        for command in ["Reset (0x0c03)", "Read Local Version Information (0x1001)", "Read BD_ADDR (0x1009)",
                        "LE Read Buffer Size", "LE Set Event Mask (0x2001)", "LE Set Random Address (0x2005)"] {
            #expect(dump.stdout.contains("HCI Command: \(command)"), "capture lacks \(command)")
        }

        let json = try await SwiftATTProcess.run(["info", "--transport=\(bench.transports[0])", "--json"])
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        #expect(object?["publicAddress"] as? String == "F0:F0:F0:F0:00:01")
        #expect(object?["aclBufferLength"] as? Int == 27)
        #expect(object?["extendedAdvertising"] as? Bool == false)
    }

    /// On a kernel without Bluetooth (these CI machines) hci0 fails with the kernel
    /// message and exit status 3.
    @Test func hci0OnThisKernel() async throws {
        let probe = socket(AF_BLUETOOTH, Int32(SOCK_RAW.rawValue), 1)
        let kernelLacksBluetooth = probe < 0 && errno == EAFNOSUPPORT
        if probe >= 0 { close(probe) }
        let result = try await SwiftATTProcess.run(["info", "--transport", "hci0"])
        #expect(result.status == 3)
        #expect(result.stdout.isEmpty)
        #expect(result.stderrLines.count == 1)
        if kernelLacksBluetooth {
            #expect(result.stderrLines.first?.hasPrefix("swift-att: error: this kernel has no Bluetooth support (AF_BLUETOOTH)") == true)
        }
    }

    @Test func refusedConnectionExitsThree() async throws {
        let port = BumbleBench.freePorts(1)[0]
        let result = try await SwiftATTProcess.run(["info", "--transport", "tcp:127.0.0.1:\(port)"])
        #expect(result.status == 3)
        #expect(result.stderrLines == ["swift-att: error: tcp:127.0.0.1:\(port): connect to 127.0.0.1:\(port) failed: ECONNREFUSED (Connection refused)"])
    }

    @Test func usageErrorsExitTwo() async throws {
        #expect(try await SwiftATTProcess.run(["info", "--transport", "usb:0"]).status == 2)
        #expect(try await SwiftATTProcess.run(["info", "--transport"]).status == 2)
        #expect(try await SwiftATTProcess.run(["info", "extra"]).status == 2)
    }
}
