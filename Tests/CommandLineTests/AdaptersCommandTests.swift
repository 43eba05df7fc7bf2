#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing

@Suite("swift-att adapters")
struct AdaptersCommandTests {
    /// These CI machines' kernel has no Bluetooth: the command says so, exit status 3.
    /// (On a kernel with Bluetooth it lists adapters: Tests/kernel checks that.)
    @Test func onThisKernel() async throws {
        let probe = socket(AF_BLUETOOTH, Int32(SOCK_RAW.rawValue), 1)
        let kernelLacksBluetooth = probe < 0 && errno == EAFNOSUPPORT
        if probe >= 0 { close(probe) }
        let result = try await SwiftATTProcess.run(["adapters"])
        if kernelLacksBluetooth {
            #expect(result.status == 3)
            #expect(result.stdout.isEmpty)
            #expect(result.stderrLines == [
                "swift-att: error: this kernel has no Bluetooth support (AF_BLUETOOTH): load the bluetooth module (modprobe bluetooth), or use --transport tcp:HOST:PORT or serial:/dev/ttyUSB0",
            ])
        } else {
            #expect(result.status == 0, "\(result.stderr)")
        }
    }

    @Test func helpAndUsage() async throws {
        let help = try await SwiftATTProcess.run(["adapters", "--help"])
        #expect(help.status == 0)
        #expect(help.stdoutLines.first == "USAGE: swift-att adapters [--json]")
        #expect(try await SwiftATTProcess.run(["help", "adapters"]).stdout == help.stdout)
        #expect(try await SwiftATTProcess.run(["--help"]).stdout.contains("adapters [--json]"))
        let extra = try await SwiftATTProcess.run(["adapters", "hci0"])
        #expect(extra.status == 2)
        #expect(extra.stderrLines == ["swift-att: error: adapters: unexpected argument 'hci0'"])
    }
}
