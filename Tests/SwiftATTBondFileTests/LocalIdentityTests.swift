@testable import SwiftATTBondFile
import SwiftATTCore
import SwiftATTHost
import SwiftATTSecurity
import Testing

@Suite("A stable local identity")
struct LocalIdentityTests {
    /// 48 random bits → the static random address made of them, or nil for the two
    /// values the spec forbids in the random part (Core 5.4 Vol 6 Part B §1.3.2.1).
    @Test("static random addresses from random bits", arguments: [
        (UInt64(0x1234_5678_9ABC), "D2:34:56:78:9A:BC" as String?),
        (0x0000_0000_0001, "C0:00:00:00:00:01"),
        (0xFFFF_FFFF_FFFE, "FF:FF:FF:FF:FF:FE"),
        (0x3FFF_FFFF_FFFE, "FF:FF:FF:FF:FF:FE"),
        (0x0000_0000_0000, nil),
        (0xC000_0000_0000, nil),
        (0x3FFF_FFFF_FFFF, nil),
        (0xFFFF_FFFF_FFFF, nil),
    ])
    func staticRandom(_ bits: UInt64, _ expected: String?) {
        let address = LocalIdentity.staticRandomAddress(from: bits)
        #expect(address?.description == expected)
        if let address { #expect(address.kind == .random && address.randomSubtype == .static) }
    }

    @Test func generatedIdentitiesAreStaticAndDistinct() {
        let identities = (0..<64).map { _ in LocalIdentity.generate() }
        #expect(identities.allSatisfy { $0.address.randomSubtype == .static })
        #expect(Set(identities.map(\.address)).count == identities.count)
        #expect(Set(identities.map(\.identityResolvingKey)).count == identities.count)
    }

    /// The adapter is its public address when it has one, its transport otherwise.
    @Test("adapter identifiers", arguments: [
        (BluetoothAddress(0xF0F0_F0F0_0001), "tcp:127.0.0.1:9000", "F0:F0:F0:F0:00:01"),
        (BluetoothAddress(0x0000_0000_0000), "tcp:127.0.0.1:9000", "tcp:127.0.0.1:9000"),
        (BluetoothAddress(0xFFFF_FFFF_FFFF), "serial:/dev/ttyACM0@1000000", "serial:/dev/ttyACM0@1000000"),
        (BluetoothAddress(0x001B_DC07_32EF), "hci0", "00:1B:DC:07:32:EF"),
    ])
    func adapterIdentifier(_ publicAddress: BluetoothAddress, _ transport: String, _ expected: String) {
        #expect(AdapterIdentifier(publicAddress: publicAddress, transport: transport).name == expected)
    }
}
