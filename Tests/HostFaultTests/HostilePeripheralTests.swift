import ATT
import BluetoothCore
import GATT
import Host
import L2CAP
import LoopbackController
import Testing

/// A hostile peripheral against the swift-att central and its GATT client: a `RawPeer`
/// advertises, the central connects, and the peer answers a read only after junk. The
/// client takes the honest answer, drops the rest without buffering it, and keeps the
/// link.
@Suite struct HostilePeripheralTests {
    @Test func theClientDropsJunkAndTakesTheHonestAnswer() async throws {
        let link = LoopbackLink()
        let raw = try await RawPeer.start(link.addController())
        try await raw.advertise()
        let central = try await Central.start(transport: link.addController().specification)
        let peer = try await central.connect(raw.address, exchangeMTU: false)
        let handle = try await raw.connectionComplete()

        let read = Task { try await peer.read(handle: 0x0010) }
        #expect(try await raw.nextATT("the Read Request") == [0x0A, 0x10, 0x00])
        // 64 KiB announced, carrying what looks like a Read Response; its continuation.
        try raw.sendACL(RawPeer.frame(channel: L2CAPChannelIdentifier.attribute, length: 0xFFFF) + [0x0B, 0xBA, 0xD0])
        try raw.sendACL([0x0B, 0xBA, 0xD0], boundary: .continuing)
        // Responses to nothing asked (Core 5.4 Vol 3 Part F §3.4.9): a Write Response, and
        // an Error Response naming another request.
        try raw.sendATT([0x13])
        try raw.sendATT([0x01, 0x12, 0x10, 0x00, 0x03])
        try raw.sendATT([0x0B, 0x01, 0x02])
        #expect(try await read.value == [0x01, 0x02])

        let diagnostics = try #require(await central.controller.diagnostics())
        #expect(diagnostics.droppedFrames == [.frameTooLong(handle: handle, length: 0xFFFF, limit: 2048),
                                              .continuationWithoutStart(handle: handle)])
        #expect(diagnostics.partialFrames == 0 && diagnostics.bufferedFrameOctets == 0)

        // The link is kept: the next read goes out and is answered.
        let again = Task { try await peer.read(handle: 0x0011) }
        #expect(try await raw.nextATT("the second Read Request") == [0x0A, 0x11, 0x00])
        try raw.sendATT([0x0B, 0x03])
        #expect(try await again.value == [0x03])
        await central.close()
        raw.close()
    }
}
