import Foundation
import Testing
import TestSupport

@Suite("swift-att dump")
struct DumpCommandTests {
    static let captures = ["gatt-mtu247-central", "gatt-mtu247-peripheral", "gatt-mtu23-central", "gatt-mtu23-peripheral"]

    /// Every ATT PDU tshark found in a capture appears decoded in the dump, by name, and
    /// nothing in the capture is reported malformed.
    @Test(arguments: captures)
    func decodesEveryPacket(_ name: String) async throws {
        let result = try await SwiftATTProcess.run(["dump", FixtureFiles.url("captures/\(name).btsnoop").path])
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        #expect(!result.stdout.contains("malformed"))
        let records = try FixtureFiles.records("captures/\(name).att.json")
        let attLines = result.stdoutLines.filter { $0.contains("L2CAP: ATT (0x0004)") }
        #expect(attLines.count == records.count)
        #expect(result.stdout.contains("HCI Command: Reset (0x0c03) plen 0"))
        #expect(result.stdout.contains("LE Meta: LE Connection Complete"))
        #expect(result.stdout.contains("Read By Group Type Response (0x11)"))
        #expect(result.stdout.contains("0x180D Heart Rate"))
        #expect(result.stdout.contains("Disconnection Complete"))
    }

    /// swift-att's own --btsnoop captures (Fixtures/hci): every packet decodes.
    @Test(arguments: ["swift-att-link-layer-central", "swift-att-link-layer-peripheral"])
    func decodesSwiftATTCaptures(_ name: String) async throws {
        let path = FixtureFiles.url("hci/\(name).btsnoop").path
        let result = try await SwiftATTProcess.run(["dump", path])
        #expect(result.status == 0)
        #expect(!result.stdout.contains("malformed"))
        #expect(!result.stdout.contains("Unknown"))
        #expect(result.stdout.contains("HCI Command: LE Set Random Address (0x2005)"))
        #expect(result.stdout.contains("LE Meta: LE Connection Complete"))
        #expect(result.stdout.contains("HCI Event: Disconnection Complete"))
        if name.hasSuffix("central") {
            #expect(result.stdout.contains("HCI Command: LE Create Connection (0x200d)"))
            #expect(result.stdout.contains("LE Meta: LE Extended Advertising Report"))
        } else {
            #expect(result.stdout.contains("HCI Command: LE Set Advertising Enable (0x200a)"))
        }
    }

    @Test func missingFileIsOneLineError() async throws {
        let result = try await SwiftATTProcess.run(["dump", "/nonexistent/capture.btsnoop"])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderrLines == ["swift-att: error: cannot open /nonexistent/capture.btsnoop: No such file or directory"])
    }

    @Test func notACaptureIsOneLineError() async throws {
        let readme = Repository.url("README.md").path
        let result = try await SwiftATTProcess.run(["dump", readme])
        #expect(result.status == 1)
        #expect(result.stderrLines == ["swift-att: error: \(readme): not a btsnoop file (no 'btsnoop\\0' header)"])
    }

    @Test func truncatedCaptureKeepsWhatItReadThenFails() async throws {
        let bytes = Data(try FixtureFiles.bytes("captures/gatt-mtu23-central.btsnoop"))
        let cut = FileManager.default.temporaryDirectory.appendingPathComponent("swift-att-truncated-\(getpid()).btsnoop")
        try bytes.prefix(bytes.count - 3).write(to: cut)
        defer { try? FileManager.default.removeItem(at: cut) }
        let result = try await SwiftATTProcess.run(["dump", cut.path])
        #expect(result.status == 1)
        #expect(result.stdout.contains("HCI Command: Reset"))
        #expect(result.stderrLines.count == 1)
        #expect(result.stderrLines.first?.contains("truncated") == true)
    }

    @Test func usageErrors() async throws {
        #expect(try await SwiftATTProcess.run(["dump"]).status == 2)
        #expect(try await SwiftATTProcess.run(["dump", "a", "b"]).status == 2)
        #expect(try await SwiftATTProcess.run(["dump", "--bogus", "x"]).status == 2)
    }
}
