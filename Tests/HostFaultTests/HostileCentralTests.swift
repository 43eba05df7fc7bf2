import SwiftATTPDU
import SwiftATTCore
import SwiftATTGATT
import SwiftATTHost
import SwiftATTL2CAP
import Testing
import TestSupport

/// A hostile central against the swift-att peripheral, end to end through the whole host:
/// raw ACL from a `RawPeer` on the loopback link. Each test checks the answer the Core
/// spec requires, that memory stays within the documented bounds, and that the link
/// survives (a plain read works afterwards). The unit tests in GATTTests and L2CAPTests
/// cover the same rules one layer at a time.
@Suite struct HostileCentralTests {
    // MARK: Prepared writes

    /// Core 5.4 Vol 3 Part F §3.4.6.1: a server with no room answers Prepare Queue Full.
    /// Parts of ATT_MTU−5 = 18 octets, 100 of them, against a queue bounded by count or
    /// by octets: the queue stops at its bound and stays there; Execute Write writes what
    /// was accepted.
    @Test(arguments: [(16, 16_384, 16), (64, 200, 11)])
    func aFloodOfPrepareWritesMeetsABoundedQueue(limit: Int, octetLimit: Int, accepted: Int) async throws {
        let target = try await HostileCentralTarget.start(configuration: .init(prepareQueueLimit: limit, prepareQueueByteLimit: octetLimit))
        let setting = try target.handle(FaultFixture.setting)
        var written: [UInt8] = []
        for n in 0..<100 {
            let part = [UInt8](repeating: UInt8(n), count: 18)
            let request = [0x16] + le(setting) + le(n * 18) + part
            let answer = try await target.raw.request(request)
            if n < accepted {
                #expect(answer == [0x17] + request.dropFirst(), "part \(n) echoed")
                written += part
            } else {
                #expect(answer == [0x01, 0x16] + le(setting) + [0x09], "part \(n): Prepare Queue Full")
            }
        }
        #expect(await target.peripheral.prepareQueueUsage(on: target.connection) == .init(writes: accepted, octets: accepted * 18))
        #expect(try await target.raw.request([0x18, 0x01]) == [0x19])
        #expect(await target.peripheral.value(of: FaultFixture.setting) == written)
        #expect(await target.peripheral.prepareQueueUsage(on: target.connection) == .init(writes: 0, octets: 0))
        try await target.expectLinkWorks()
        await target.stop()
    }

    // MARK: L2CAP framing

    /// A frame announcing more than the host accepts (2048 octets; 64 KiB is the most a
    /// header can say) is dropped as it starts, before anything is buffered, and so are
    /// its continuations; the Read Request inside it is never served. The link stays up
    /// (L2CAPRecombiner's documented choice).
    @Test(arguments: [0xFFFF, 2049])
    func aFrameAnnouncingTooMuchIsDroppedUnbuffered(announced: Int) async throws {
        let target = try await HostileCentralTarget.start()
        let label = try target.handle(FaultFixture.label)
        try target.raw.sendACL(RawPeer.frame(channel: L2CAPChannelIdentifier.attribute, length: announced)
                               + [0x0A] + le(label) + [UInt8](repeating: 0xEE, count: 244))
        for _ in 0..<10 { try target.raw.sendACL([UInt8](repeating: 0xEE, count: 251), boundary: .continuing) }
        try await target.expectLinkWorks()
        let diagnostics = try await target.diagnostics()
        #expect(diagnostics.maximumFramePayload == 2048)
        #expect(diagnostics.partialFrames == 0 && diagnostics.bufferedFrameOctets == 0)
        let handle = target.connection
        #expect(diagnostics.droppedFrames == [.frameTooLong(handle: handle, length: announced, limit: 2048)]
            + Array(repeating: .continuationWithoutStart(handle: handle), count: 10))
        await target.stop()
    }

    /// A frame within the limit is held while it arrives, never beyond its announced
    /// length, and a new frame's start drops it (Core 5.4 Vol 3 Part A §7.2).
    @Test func aPartialFrameIsHeldWithinItsLengthUntilTheNextStart() async throws {
        let target = try await HostileCentralTarget.start()
        try target.raw.sendACL(RawPeer.frame(channel: L2CAPChannelIdentifier.attribute, length: 2048) + [UInt8](repeating: 0x52, count: 247))
        for _ in 0..<3 { try target.raw.sendACL([UInt8](repeating: 0xEE, count: 251), boundary: .continuing) }
        try await eventually("the host holds 1000 octets of the frame") {
            await target.peripheral.controller.diagnostics().map { $0.partialFrames == 1 && $0.bufferedFrameOctets == 1000 } ?? false
        }
        try await target.expectLinkWorks()
        let diagnostics = try await target.diagnostics()
        #expect(diagnostics.partialFrames == 0 && diagnostics.bufferedFrameOctets == 0)
        #expect(diagnostics.droppedFrames == [.startBeforePreviousCompleted(handle: target.connection, missing: 1048)])
        await target.stop()
    }

    /// Continuation fragments with no frame started are dropped, whatever they look
    /// like (here a Read Request and a whole Write Request frame), as is a fragment that
    /// runs past its frame's announced length. Nothing is served or written.
    @Test func continuationsWithNoStartAreDropped() async throws {
        let target = try await HostileCentralTarget.start()
        let label = try target.handle(FaultFixture.label)
        let setting = try target.handle(FaultFixture.setting)
        try target.raw.sendACL([0x0A] + le(label), boundary: .continuing)
        try target.raw.sendACL(RawPeer.frame(channel: L2CAPChannelIdentifier.attribute, length: 4) + [0x12] + le(setting) + [0x77],
                               boundary: .continuing)
        try target.raw.sendACL(RawPeer.frame(channel: L2CAPChannelIdentifier.attribute, length: 6) + [0x12] + le(setting))
        try target.raw.sendACL([0x77, 0x77, 0x77, 0x77], boundary: .continuing)
        try await target.expectLinkWorks()
        #expect(await target.peripheral.value(of: FaultFixture.setting) == [0x00])
        let handle = target.connection
        #expect(try await target.diagnostics().droppedFrames == [
            .continuationWithoutStart(handle: handle), .continuationWithoutStart(handle: handle),
            .longerThanAnnounced(handle: handle, announced: 6, received: 7),
        ])
        await target.stop()
    }

    // MARK: ATT_MTU

    /// The central settles on ATT_MTU 23, then sends longer PDUs and tries to raise it.
    /// Core 5.4 Vol 3 Part F §3.2.8: ATT_MTU bounds every PDU, so a longer request gets
    /// Invalid PDU and a longer command is ignored; a second exchange gets Request Not
    /// Supported (the bearer's documented choice) and changes nothing. The server keeps
    /// to 23 too: Read Response ATT_MTU−1 octets (§3.4.4.3), notifications ATT_MTU−3
    /// (§3.4.7.1).
    @Test func anExchangeOf23ThenLongerPDUs() async throws {
        let target = try await HostileCentralTarget.start()
        let setting = try target.handle(FaultFixture.setting)
        let long = try target.handle(FaultFixture.long)
        #expect(try await target.raw.request([0x02] + le(23)) == [0x03] + le(517))
        let value = [UInt8](repeating: 0x33, count: 30)
        #expect(try await target.raw.request([0x12] + le(setting) + value) == [0x01, 0x12, 0x00, 0x00, 0x04])
        try target.raw.sendATT([0x52] + le(setting) + value)
        #expect(try await target.raw.request([0x02] + le(517)) == [0x01, 0x02, 0x00, 0x00, 0x06])
        #expect(try await target.raw.request([0x12] + le(setting) + value.prefix(21)) == [0x01, 0x12, 0x00, 0x00, 0x04])
        #expect(await target.peripheral.value(of: FaultFixture.setting) == [0x00], "nothing too long was written")
        // Exactly ATT_MTU is fine.
        #expect(try await target.raw.request([0x12] + le(setting) + value.prefix(20)) == [0x13])
        #expect(await target.peripheral.value(of: FaultFixture.setting) == Array(value.prefix(20)))

        #expect(try await target.raw.request([0x0A] + le(long)) == [0x0B] + (0..<22).map { UInt8($0) })
        #expect(try await target.raw.request([0x0C] + le(long) + le(22)) == [0x0D] + (22..<44).map { UInt8($0) })
        let stream = try target.handle(FaultFixture.stream)
        let configuration = try #require(target.peripheral.database.clientConfigurationHandle(of: FaultFixture.stream))
        #expect(try await target.raw.request([0x12] + le(configuration) + [0x01, 0x00]) == [0x13])
        #expect(target.peripheral.updateValue([UInt8](repeating: 0x44, count: 40), for: FaultFixture.stream))
        #expect(try await target.raw.nextATT("the notification") == [0x1B] + le(stream) + [UInt8](repeating: 0x44, count: 20))
        try await target.expectLinkWorks()
        await target.stop()
    }

    // MARK: Permissions

    /// Core 5.4 Vol 3 Part F §3.4.4.3, §3.4.5.1, §3.4.6.1: on a link with no encryption,
    /// reading or writing an attribute that requires security is refused with the error
    /// for the first unmet requirement in the order AttributePermissions documents
    /// (authorization, authentication, encryption). A Write Command is silently ignored.
    /// Nothing is read or written, and the link stays.
    @Test(arguments: [
        (FaultFixture.encrypted, ATTErrorCode.insufficientEncryption),
        (FaultFixture.authenticated, .insufficientAuthentication),
        (FaultFixture.authorized, .insufficientAuthorization),
        (FaultFixture.authorizedAndAuthenticated, .insufficientAuthorization),
    ])
    func protectedAttributesNeedSecurityFirst(_ characteristic: GATTCharacteristic, error: ATTErrorCode) async throws {
        let target = try await HostileCentralTarget.start()
        let h = try target.handle(characteristic)
        let code = error.rawValue
        #expect(try await target.raw.request([0x0A] + le(h)) == [0x01, 0x0A] + le(h) + [code])
        #expect(try await target.raw.request([0x0C] + le(h) + le(0)) == [0x01, 0x0C] + le(h) + [code])
        #expect(try await target.raw.request([0x12] + le(h) + [0xA5]) == [0x01, 0x12] + le(h) + [code])
        #expect(try await target.raw.request([0x16] + le(h) + le(0) + [0xA5]) == [0x01, 0x16] + le(h) + [code])
        try target.raw.sendATT([0x52] + le(h) + [0xA5])
        // Read By Type names the first attribute it cannot read (§3.4.4.1).
        #expect(try await target.raw.request([0x08] + le(h) + le(h) + le(Int(characteristic.uuid.uuid16 ?? 0)))
            == [0x01, 0x08] + le(h) + [code])
        try await target.expectLinkWorks()
        #expect(await target.peripheral.value(of: characteristic) == [0x5A])
        #expect(await target.peripheral.prepareQueueUsage(on: target.connection) == .init(writes: 0, octets: 0))
        await target.stop()
    }

    /// Core 5.4 Vol 3 Part F §3.4.5.1, §3.4.6.1: writing a value without write
    /// permission, or a declaration, gets Write Not Permitted with its handle; a Write
    /// Command is ignored. The value stays as it was.
    @Test func writesToReadOnlyAttributesAreNotPermitted() async throws {
        let target = try await HostileCentralTarget.start()
        let value = try target.handle(FaultFixture.readOnly)
        let declaration = try #require(target.peripheral.database.declarationHandle(of: FaultFixture.readOnly))
        for h in [value, declaration, 0x0001] {
            #expect(try await target.raw.request([0x12] + le(h) + [0xFF]) == [0x01, 0x12] + le(h) + [0x03], "Write Request to \(h)")
            #expect(try await target.raw.request([0x16] + le(h) + le(0) + [0xFF]) == [0x01, 0x16] + le(h) + [0x03], "Prepare Write to \(h)")
        }
        try target.raw.sendATT([0x52] + le(value) + [0xFF])
        #expect(try await target.raw.request([0x0A] + le(value)) == [0x0B, 0x01, 0x02, 0x03])
        #expect(await target.peripheral.prepareQueueUsage(on: target.connection) == .init(writes: 0, octets: 0))
        try await target.expectLinkWorks()
        await target.stop()
    }
}
