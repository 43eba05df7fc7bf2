import SwiftATTCore
import SwiftATTSMP
import Testing

/// Every SMP command decodes from octets the spec, Bumble or BlueZ gives (SMPVectors.swift)
/// to the listed value, and encodes back to exactly those octets.
@Suite("Golden vectors")
struct GoldenVectorTests {
    @Test("the table covers every command, with unique names and hex that reads back")
    func tableIsWellFormed() throws {
        let vectors = SMPVector.all
        #expect(Set(vectors.map(\.name)).count == vectors.count, "vector names are unique")
        for v in vectors {
            #expect(Hex.encode(v.bytes) == v.hex.filter { $0 != " " }, "\(v.name): lower-case hex, spaces only")
            #expect(!v.source.isEmpty, "\(v.name) says where it comes from")
        }
        for code in SMPCode.allCases {
            #expect(vectors.contains { $0.bytes.first == code.rawValue }, "no vector for \(code)")
        }
        // Every value a one-octet enumeration can take appears on the wire somewhere.
        let failed = Set(vectors.compactMap { v -> PairingFailureReason? in
            if case let .pairingFailed(r) = v.pdu { return r } else { return nil }
        })
        #expect(failed.count >= 6)
        let keypress = Set(vectors.compactMap { v -> KeypressNotificationType? in
            if case let .pairingKeypressNotification(t) = v.pdu { return t } else { return nil }
        })
        #expect(keypress == Set(KeypressNotificationType.allCases))
        let io = Set(vectors.compactMap { v -> IOCapability? in
            switch v.pdu {
            case let .pairingRequest(f), let .pairingResponse(f): return f.ioCapability
            default: return nil
            }
        })
        #expect(io == Set(IOCapability.allCases))
    }

    @Test("decodes to the listed value", arguments: SMPVector.all)
    func decodes(_ v: SMPVector) throws {
        let pdu = try SMPPDU(decoding: v.bytes)
        #expect(pdu == v.pdu)
        #expect(pdu.code.rawValue == v.bytes[0])
        #expect(pdu.code.pduLength == v.bytes.count)
    }

    @Test("encodes to exactly the listed octets", arguments: SMPVector.all)
    func encodes(_ v: SMPVector) {
        #expect(v.pdu.encodedLength == v.bytes.count)
        #expect(v.pdu.bytes == v.bytes)
        #expect(v.pdu.encoded() == v.bytes)
    }

    @Test("round trip: encode(decode(b)) == b", arguments: SMPVector.all)
    func roundTrips(_ v: SMPVector) throws {
        #expect(try SMPPDU(decoding: v.bytes).bytes == v.bytes)
    }

    @Test("decodes a slice in the middle of a larger buffer", arguments: SMPVector.all)
    func decodesASlice(_ v: SMPVector) throws {
        // An L2CAP header in front (length, CID 0x0006) and stray octets behind.
        let buffer: [UInt8] = [UInt8(v.bytes.count), 0x00, 0x06, 0x00] + v.bytes + [0xEE, 0xEE]
        let pdu = try SMPPDU(decoding: buffer[4..<(4 + v.bytes.count)])
        #expect(pdu == v.pdu)
    }

    @Test("encode(into:) appends after what the array holds", arguments: SMPVector.all)
    func appends(_ v: SMPVector) {
        var frame: [UInt8] = [UInt8(v.bytes.count), 0x00, 0x06, 0x00]
        v.pdu.encode(into: &frame)
        #expect(frame == [UInt8(v.bytes.count), 0x00, 0x06, 0x00] + v.bytes)
        v.pdu.encode(into: &frame)
        #expect(frame.count == 4 + 2 * v.bytes.count)

        // …and into a caller's buffer, never past encodedLength.
        var buffer = [UInt8](repeating: 0xCC, count: v.bytes.count + 3)
        let written = buffer.withUnsafeMutableBytes { v.pdu.encode(into: $0) }
        #expect(written == v.bytes.count)
        #expect(Array(buffer.prefix(v.bytes.count)) == v.bytes)
        #expect(buffer.suffix(3).allSatisfy { $0 == 0xCC })
    }

    @Test("the debug public key goes on the wire least significant octet first")
    func debugKeyByteOrder() throws {
        let pdu = SMPPDU.pairingPublicKey(x: debugPublicKeyX, y: debugPublicKeyY)
        let wire = pdu.bytes
        #expect(wire.count == 65)
        #expect(Array(wire[1..<33]) == debugPublicKeyX.reversed())
        #expect(Array(wire[33..<65]) == debugPublicKeyY.reversed())
        // The spec prints X as 20b003d2…0e359de6: its last octet leads the wire.
        #expect(wire[1] == 0xE6 && wire[32] == 0x20)
        guard case let .pairingPublicKey(x, y) = try SMPPDU(decoding: wire) else {
            Issue.record("not a public key")
            return
        }
        #expect(x == debugPublicKeyX)
        #expect(y == debugPublicKeyY)
    }

    @Test("a public key coordinate of another length encodes as the same 32-octet number")
    func coordinateNormalisation() throws {
        // Leading zeros dropped (a big-number library's shortest form)…
        var x = debugPublicKeyX
        x[0] = 0
        let short = SMPPDU.pairingPublicKey(x: Array(x.dropFirst()), y: debugPublicKeyY)
        #expect(short.bytes == SMPPDU.pairingPublicKey(x: x, y: debugPublicKeyY).bytes)
        #expect(short.encodedLength == 65)
        // …or an extra leading zero (an ASN.1 integer's sign octet).
        let long = SMPPDU.pairingPublicKey(x: [0] + debugPublicKeyX, y: [0] + debugPublicKeyY)
        #expect(long.bytes == SMPPDU.pairingPublicKey(x: debugPublicKeyX, y: debugPublicKeyY).bytes)
        // An empty coordinate is zero.
        let empty = SMPPDU.pairingPublicKey(x: [], y: [])
        #expect(empty.bytes == [0x0C] + [UInt8](repeating: 0, count: 64))
        // Decoding always gives 32 octets.
        guard case let .pairingPublicKey(dx, dy) = try SMPPDU(decoding: short.bytes) else {
            Issue.record("not a public key")
            return
        }
        #expect(dx == x && dy == debugPublicKeyY)
    }
}
