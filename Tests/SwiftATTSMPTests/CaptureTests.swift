import SwiftATTCore
import SwiftATTHCI
import SwiftATTL2CAP
import SwiftATTSMP
import Testing
import TestSupport

/// The SMP traffic of a real LE Secure Connections pairing between two Bumble hosts
/// (Fixtures/hci/README.md), found as a host finds it: btsnoop records → ACL packets →
/// L2CAP recombination → channel 0x0006. The public keys arrive in ACL fragments.
@Suite("Bumble's pairing capture")
struct CaptureTests {
    struct CapturedPDU {
        var direction: BTSnoop.Direction
        var bytes: [UInt8]
    }

    static func smpPDUs(in file: String) throws -> [CapturedPDU] {
        var sent = L2CAPRecombiner()
        var received = L2CAPRecombiner()
        var pdus: [CapturedPDU] = []
        for record in try BTSnoop.records(in: FixtureFiles.bytes(file)) where record.packetType == .aclData {
            let packet = try ACLDataPacket(parsing: record.packet)
            let outcome = record.direction == .sent ? sent.push(packet) : received.push(packet)
            #expect(outcome.dropped == nil)
            if let frame = outcome.frame, frame.channel == L2CAPChannelIdentifier.securityManager {
                pdus.append(CapturedPDU(direction: record.direction, bytes: Array(frame.payload)))
            }
        }
        return pdus
    }

    /// What tshark 4.0.17 names, in order, on the central's side (`tshark -Y btsmp`).
    static let centralSequence: [(BTSnoop.Direction, SMPCode)] = [
        (.sent, .pairingRequest), (.received, .pairingResponse),
        (.sent, .pairingPublicKey), (.received, .pairingPublicKey),
        (.received, .pairingConfirm), (.sent, .pairingRandom), (.received, .pairingRandom),
        (.sent, .pairingDHKeyCheck), (.received, .pairingDHKeyCheck),
        (.received, .identityInformation), (.received, .identityAddressInformation),
        (.sent, .identityInformation), (.sent, .identityAddressInformation),
    ]

    @Test("the central's capture: every SMP PDU decodes, in tshark's order, and re-encodes exactly")
    func central() throws {
        let pdus = try Self.smpPDUs(in: "hci/scan-pair-central.btsnoop")
        #expect(pdus.count == Self.centralSequence.count)
        for (pdu, (direction, code)) in zip(pdus, Self.centralSequence) {
            let decoded = try SMPPDU(decoding: pdu.bytes)
            #expect(pdu.direction == direction && decoded.code == code)
            #expect(decoded.bytes == pdu.bytes)
        }
        // The capture's own values, as the vector table lists them.
        let decoded = try pdus.map { try SMPPDU(decoding: $0.bytes) }
        #expect(decoded.first == .pairingRequest(PairingFeatures(authenticationRequirements: [.bonding, .mitm, .secureConnections])))
        #expect(decoded.last == .identityAddressInformation(BluetoothAddress(0xF0F0_F0F0_F001, kind: .public)))
    }

    @Test("the peripheral's capture is the same conversation seen from the other end")
    func peripheral() throws {
        let central = try Self.smpPDUs(in: "hci/scan-pair-central.btsnoop")
        let peripheral = try Self.smpPDUs(in: "hci/scan-pair-peripheral.btsnoop")
        #expect(central.map(\.bytes) == peripheral.map(\.bytes))
        #expect(zip(central, peripheral).allSatisfy { $0.direction != $1.direction })
        for pdu in peripheral { #expect(try SMPPDU(decoding: pdu.bytes).bytes == pdu.bytes) }
    }

    @Test("each side's public key, reassembled from fragments, is the one the other side received whole")
    func fragmentedPublicKeys() throws {
        let central = try Self.smpPDUs(in: "hci/scan-pair-central.btsnoop")
        let keys = try central.filter { $0.bytes.first == SMPCode.pairingPublicKey.rawValue }.map { try SMPPDU(decoding: $0.bytes) }
        let vectors = SMPVector.secureConnections.filter { $0.name.hasPrefix("Pairing Public Key: Bumble") }.map(\.pdu)
        #expect(keys.count == 2 && Set(keys) == Set(vectors))
    }
}
