import SwiftATTPDU
import SwiftATTCore
import SwiftATTGATT
import SwiftATTHost
import SwiftATTL2CAP
import SwiftATTLoopback
import Testing

/// A hostile peripheral against the swift-att central and its GATT client: a `RawPeer`
/// advertises, the central connects, and the peer answers a read only after junk. The
/// client takes the honest answer, drops the rest without buffering it, and keeps the
/// link.
@Suite struct HostilePeripheralTests {
    @Test func theClientDropsJunkAndTakesTheHonestAnswer() async throws {
        let target = try await HostilePeripheralTarget.start()
        let (raw, central, peer, handle) = (target.raw, target.central, target.peer, target.handle)

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
        await target.stop()
    }

    /// Found by the gatt-client fuzz target, here through the whole central: a peer that
    /// exchanges MTU again mid long write, announcing less than it did, shrinks ATT_MTU
    /// under the procedure. The part that no longer fits is refused, the central cancels
    /// the part it prepared (so a later write's Execute cannot write it) and the call
    /// fails with the refusal; the link is kept.
    @Test func aSecondExchangeThatShrinksATTMTUMidLongWrite() async throws {
        let link = LoopbackLink()
        let raw = try await RawPeer.start(link.addController())
        try await raw.advertise()
        let central = try await Central.start(transport: link.addController().specification)
        let connecting = Task { try await central.connect(raw.address) }
        _ = try await raw.connectionComplete()
        #expect(try await raw.nextATT("the central's Exchange MTU Request") == [0x02, 0x05, 0x02])
        try raw.sendATT([0x03, 0x18, 0x00])                        // Server Rx MTU 24
        let peer = try await connecting.value

        let value = [UInt8](repeating: 0x5A, count: 40)
        let write = Task { try await peer.write(value, handle: 0x0010) }
        let firstPart = [0x16, 0x10, 0x00, 0x00, 0x00] + value.prefix(19)   // ATT_MTU−5 octets
        #expect(try await raw.nextATT("the first Prepare Write Request") == firstPart)
        try raw.sendATT([0x02, 0x17, 0x00])                        // its own exchange: Client Rx MTU 23
        #expect(try await raw.nextATT("the central's Exchange MTU Response") == [0x03, 0x05, 0x02])
        try raw.sendATT([0x17] + firstPart.dropFirst())             // the echo
        #expect(try await raw.nextATT("Execute Write Request (cancel)") == [0x18, 0x00])
        try raw.sendATT([0x19])
        await #expect(throws: GATTClientError.bearer(.pduTooLong(length: 24, mtu: 23))) { try await write.value }

        let read = Task { try await peer.read(handle: 0x0011) }
        #expect(try await raw.nextATT("a Read Request after it") == [0x0A, 0x11, 0x00])
        try raw.sendATT([0x0B, 0x03])
        #expect(try await read.value == [0x03])
        await central.close()
        raw.close()
    }
}

