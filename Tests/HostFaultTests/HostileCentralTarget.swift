import SwiftATTL2CAP
import SwiftATTPDU
import SwiftATTCore
import SwiftATTGATT
import SwiftATTHost
import SwiftATTLoopback
import Testing

/// A swift-att peripheral serving `FaultFixture.database()` on a loopback link, with a
/// `RawPeer` connected to it as central: the attacker and its target.
struct HostileCentralTarget {
    let link: LoopbackLink
    let peripheral: Peripheral
    /// The peripheral's controller, for faults.
    let controller: LoopbackController
    let raw: RawPeer
    /// The connection handle (the same on both sides of a loopback link).
    let connection: UInt16

    static func start(configuration: GATTServer.Configuration = .init()) async throws -> HostileCentralTarget {
        let link = LoopbackLink()
        let controller = link.addController()
        let peripheral = try await Peripheral.start(transport: controller.specification,
                                                    database: try FaultFixture.database(), configuration: configuration)
        try await peripheral.startAdvertising(data: FaultFixture.advertisement)
        let raw = try await RawPeer.start(link.addController())
        let connection = try await raw.connect(to: peripheral.info.randomAddress)
        return HostileCentralTarget(link: link, peripheral: peripheral, controller: controller, raw: raw, connection: connection)
    }

    /// Sends an LE signaling command from the raw central.
    func signal(_ command: LESignalingCommand, identifier: UInt8 = 1) throws {
        let bytes = command.packet(identifier: identifier).encoded()
        try raw.sendACL(RawPeer.frame(channel: L2CAPChannelIdentifier.leSignaling, length: bytes.count) + bytes)
    }

    /// The next signaling command the peripheral sends.
    func nextSignal(_ what: String) async throws -> LESignalingFrame {
        try await raw.next(what) { inbound -> LESignalingFrame? in
            guard case let .frame(frame) = inbound, frame.channel == L2CAPChannelIdentifier.leSignaling else { return nil }
            return try? LESignalingFrame(parsing: frame.payload)
        }
    }

    func handle(_ characteristic: GATTCharacteristic) throws -> UInt16 {
        try #require(peripheral.database.valueHandle(of: characteristic))
    }

    /// The link survived whatever came before: a plain Read Request is the next thing
    /// answered, and the connection is still up.
    func expectLinkWorks(sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let label = try handle(FaultFixture.label)
        #expect(try await raw.request([0x0A] + le(label)) == [0x0B] + FaultFixture.labelText, sourceLocation: sourceLocation)
        #expect(link.connectionCount == 1, sourceLocation: sourceLocation)
    }

    /// What the peripheral's host holds and dropped, once it has handled everything sent
    /// before (`expectLinkWorks` first makes sure of that).
    func diagnostics() async throws -> HostDiagnostics {
        try #require(await peripheral.controller.diagnostics())
    }

    func stop() async {
        raw.close()
        await peripheral.close()
    }
}

/// Little-endian octets of a handle, offset or MTU, as ATT writes them.
func le(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
func le(_ value: Int) -> [UInt8] { le(UInt16(value)) }
