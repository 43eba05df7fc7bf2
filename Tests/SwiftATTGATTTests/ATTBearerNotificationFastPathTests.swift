import SwiftATTPDU
import SwiftATTGATT
import Testing

/// `ATTBearer.notificationHandle(in:)` and `notification(in:)` (the same from borrowed
/// bytes), the host's shortcuts for a stream of notifications: each must agree with
/// `receive` on every PDU it accepts, and accept nothing else.
@Suite struct ATTBearerNotificationFastPathTests {
    typealias F = ATTBearerFixture

    /// What `notification(in:)` finds in `pdu`, as the action `receive` would hand up.
    static func borrowed(_ bearer: F.Bearer, _ pdu: ArraySlice<UInt8>) -> ATTBearer.Action? {
        bearer.notification(in: pdu.span).map { .notification(handle: $0.handle, value: pdu.bytes(at: $0.value)) }
    }

    @Test func aWellFormedNotificationIsWhatReceiveHandsUp() throws {
        var bearer = F.Bearer(receiveMTU: 517)
        let pdu: [UInt8] = [0x1B, 0x2A, 0x00, 0x01, 0x02, 0x03]
        #expect(bearer.notificationHandle(in: pdu[...]) == 0x002A)
        #expect(Self.borrowed(bearer, pdu[...]) == .notification(handle: 0x002A, value: [0x01, 0x02, 0x03][...]))
        #expect(bearer.receive(pdu, now: F.t0) == [.notification(handle: 0x002A, value: [0x01, 0x02, 0x03][...])])
    }

    @Test func anEmptyValueIsStillANotification() throws {
        var bearer = F.Bearer(receiveMTU: 517)
        #expect(bearer.notificationHandle(in: [0x1B, 0x03, 0x00][...]) == 3)
        #expect(Self.borrowed(bearer, [0x1B, 0x03, 0x00][...]) == .notification(handle: 3, value: []))
        #expect(bearer.receive([0x1B, 0x03, 0x00], now: F.t0) == [.notification(handle: 3, value: [])])
    }

    @Test func theLongestValueIsANotificationAndOneOctetMoreIsNot() {
        let bearer = F.Bearer(receiveMTU: 517)
        let longest: [UInt8] = [0x1B, 0x03, 0x00] + [UInt8](repeating: 0x5A, count: 512)
        #expect(bearer.notificationHandle(in: longest[...]) == 3)
        #expect(bearer.notificationHandle(in: (longest + [0x5A])[...]) == nil)
        #expect(Self.borrowed(bearer, longest[...]) == .notification(handle: 3, value: longest[3...]))
        #expect(Self.borrowed(bearer, (longest + [0x5A])[...]) == nil)
    }

    /// Malformed, or not a Handle Value Notification: nil, so that `receive` reports it
    /// (dropped) or acts on it (an indication is confirmed, a response completes).
    @Test(arguments: [
        [] as [UInt8],
        [0x1B],                         // no handle
        [0x1B, 0x2A],                   // half a handle
        [0x1D, 0x2A, 0x00, 0x01],       // an indication
        [0x23, 0x2A, 0x00, 0x01, 0x00, 0x07],  // Multiple Handle Value Notification
        [0x0B, 0x01],                   // a Read Response
    ])
    func anythingElseIsLeftToReceive(_ pdu: [UInt8]) {
        let bearer = F.Bearer(receiveMTU: 517)
        #expect(bearer.notificationHandle(in: pdu[...]) == nil)
        #expect(Self.borrowed(bearer, pdu[...]) == nil)
    }

    @Test func aClosedBearerTakesNothing() {
        var bearer = F.Bearer(receiveMTU: 517)
        _ = bearer.close(reason: .remoteUserTerminated)
        let pdu: [UInt8] = [0x1B, 0x2A, 0x00, 0x01]
        #expect(bearer.notificationHandle(in: pdu[...]) == nil)
        #expect(Self.borrowed(bearer, pdu[...]) == nil)
        #expect(bearer.receive(pdu, now: F.t0).isEmpty)
    }

    @Test func aPDUSlicedFromALargerBufferIsReadWithinItsBounds() throws {
        // The host hands the bearer a slice of the ACL packet, not an array of its own.
        let packet: [UInt8] = [0x02, 0x00, 0x20, 0x08, 0x00, 0x04, 0x00, 0x04, 0x00, 0x1B, 0x10, 0x00, 0xAA, 0xBB]
        let bearer = F.Bearer(receiveMTU: 517)
        #expect(bearer.notificationHandle(in: packet[9...]) == 0x0010)
        #expect(bearer.notificationHandle(in: packet[9..<11]) == nil)
        #expect(Self.borrowed(bearer, packet[9...]) == .notification(handle: 0x0010, value: [0xAA, 0xBB][...]))
        #expect(Self.borrowed(bearer, packet[9..<11]) == nil)
    }
}
