import SwiftATTHCI
import SwiftATTL2CAP
import TestSupport

/// One ATT PDU found in a capture, with the direction it travelled.
struct CapturedPDU {
    var direction: BTSnoop.Direction
    var bytes: [UInt8]
}

/// A btsnoop capture under Fixtures/captures and tshark's dissection of it.
struct CaptureFixture: CustomStringConvertible, Sendable {
    let name: String

    static var all: [CaptureFixture] {
        FixtureFiles.names(in: "captures", endingWith: ".btsnoop")
            .map { CaptureFixture(name: String($0.dropLast(".btsnoop".count))) }
    }

    var description: String { name }

    func captureBytes() throws -> [UInt8] {
        try FixtureFiles.bytes("captures/\(name).btsnoop")
    }

    /// tshark's records, one per ATT PDU (see Fixtures/captures/README.md).
    func tsharkRecords() throws -> [[String: Any]] {
        try FixtureFiles.records("captures/\(name).att.json")
    }

    /// Every ATT PDU in the capture, found the way a host finds them: btsnoop records →
    /// ACL packets → L2CAP recombination (one recombiner per direction) → channel 0x0004.
    func attPDUs() throws -> (pdus: [CapturedPDU], drops: [L2CAPRecombiner.DropReason]) {
        var sent = L2CAPRecombiner()
        var received = L2CAPRecombiner()
        var pdus: [CapturedPDU] = []
        var drops: [L2CAPRecombiner.DropReason] = []
        for record in try BTSnoop.records(in: captureBytes()) where record.packetType == .aclData {
            let packet = try ACLDataPacket(parsing: record.packet)
            let outcome = record.direction == .sent ? sent.push(packet) : received.push(packet)
            if let dropped = outcome.dropped { drops.append(dropped) }
            if let frame = outcome.frame, frame.channel == L2CAPChannelIdentifier.attribute {
                pdus.append(CapturedPDU(direction: record.direction, bytes: Array(frame.payload)))
            }
        }
        return (pdus, drops)
    }
}
