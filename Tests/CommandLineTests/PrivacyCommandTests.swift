import BenchSupport
import Foundation
import Testing

/// `--privacy` on `swift-att peripheral` and `central`, as binaries on Bumble's virtual
/// controllers: the peripheral advertises from resolvable private addresses of the bond
/// file's identity and takes a new one each --privacy-timeout; a private swift-att
/// central reaches it; a bond file without an IRK is refused with an error saying so.
@Suite("swift-att --privacy", .serialized)
struct PrivacyCommandTests {
    /// A resolvable private address's two most significant bits are 0b01; a static
    /// random address's 0b11 (Core 5.4 Vol 6 Part B §1.3.2).
    static func topBits(_ address: String) -> Int? {
        address.first?.hexDigitValue.map { $0 >> 2 }
    }

    static func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("swift-att-privacy-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    @Test func thePeripheralAdvertisesFromPrivateAddressesOfItsIdentity() async throws {
        let bench = try await BumbleBench(controllers: 2)
        defer { bench.stop() }
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let bonds = directory.appendingPathComponent("p.json").path
        let peripheral = try RunningSwiftATT(["heart-rate", "--transport", bench.transports[0], "--json", "--bonds", bonds, "--privacy"])
        defer { peripheral.stop() }
        let advertising = try await peripheral.json("advertising")
        let address = try #require(advertising["address"] as? String)
        let identity = try #require(advertising["identity"] as? String)
        #expect(Self.topBits(address) == 0b01, "\(address) is a resolvable private address")
        #expect(Self.topBits(identity) == 0b11, "\(identity) is the static identity address")
        #expect(try String(contentsOfFile: bonds, encoding: .utf8).contains(identity), "the bond file's identity")

        // A swift-att central, private too, finds it by name and reads it there.
        let read = try await SwiftATTProcess.run(["central", "read", "swift-att HRM", "2A38", "--privacy", "--transport", bench.transports[1],
                                                  "--bonds", directory.appendingPathComponent("c.json").path])
        #expect(read.status == 0, "\(read.stderr)")
        #expect(read.stderr.contains("privacy: scanning and connecting from resolvable private addresses of identity "))
        _ = try await peripheral.json("connected") { ($0["address"] as? String).map { Self.topBits($0) == 0b01 } ?? false }
        #expect(try await peripheral.interrupt() == 0)

        // Again with a short timeout: the same identity, a new address once it has passed.
        let rotating = try RunningSwiftATT(["heart-rate", "--transport", bench.transports[0], "--json", "--bonds", bonds,
                                            "--privacy", "--privacy-timeout", "1"])
        defer { rotating.stop() }
        let again = try await rotating.json("advertising")
        #expect(again["identity"] as? String == identity)
        let first = try #require(again["address"] as? String)
        let renewed = try #require(try await rotating.json("private-address", timeout: .seconds(10))["address"] as? String)
        #expect(renewed != first && renewed != address && Self.topBits(renewed) == 0b01)
        #expect(try await rotating.interrupt() == 0)
    }

    /// A bond file whose adapter IRK is all zeros (hand-edited) is refused as the bond
    /// file it is, naming the member, by every command, with or without `--privacy`.
    @Test func aBondFileWithAZeroIRKIsRefused() async throws {
        let bench = try await BumbleBench(controllers: 1)
        defer { bench.stop() }
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let bonds = directory.appendingPathComponent("p.json").path
        // A first run makes the bond file; then its IRK is zeroed, as a hand-edited file might be.
        let first = try await SwiftATTProcess.run(["peripheral", "light", "--transport", bench.transports[0], "--bonds", bonds,
                                                   "--duration", "1"])
        #expect(first.status == 0, "\(first.stderr)")
        let text = try String(contentsOfFile: bonds, encoding: .utf8)
        let zeroed = text.replacingOccurrences(of: #""irk" *: *"[0-9a-fA-F]{32}""#, with: #""irk": "00000000000000000000000000000000""#,
                                               options: .regularExpression)
        #expect(zeroed != text)
        try zeroed.write(toFile: bonds, atomically: true, encoding: .utf8)

        for command in [["peripheral", "light", "--privacy"], ["central", "scan", "--privacy"], ["central", "scan"]] {
            let refused = try await SwiftATTProcess.run(command + ["--transport", bench.transports[0], "--bonds", bonds])
            #expect(refused.status == 1, "\(command): \(refused.stderr)")
            #expect(refused.stderrLines.count == 1, "\(command): \(refused.stderr)")
            #expect(refused.stderr.contains(bonds), "\(command): \(refused.stderr)")
            #expect(refused.stderr.contains(".irk") && refused.stderr.contains("all-zero IRK"), "\(command): \(refused.stderr)")
        }
        // The file is left as it was.
        #expect(try String(contentsOfFile: bonds, encoding: .utf8) == zeroed)
    }
}
