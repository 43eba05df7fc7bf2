#if canImport(Glibc)
import Glibc
#endif
import SwiftATTHCI
import Testing
@testable import SwiftATTTransport

/// /dev/vhci's rules, with a SOCK_SEQPACKET socket pair standing in for the driver (one
/// message per read and write, as the driver keeps them).
@Suite struct VHCITransportTests {
    /// The transport's end and the "driver's" end.
    static func pair() throws -> (VHCITransport, Int32) {
        var fds: [Int32] = [-1, -1]
        try #require(socketpair(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue), 0, &fds) == 0)
        return (try VHCITransport(name: "vhci", fileDescriptor: fds[0]), fds[1])
    }

    static func readMessage(_ fd: Int32) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: 512)
        let n = read(fd, &buffer, buffer.count)
        return n > 0 ? Array(buffer[..<n]) : []
    }

    @Test func asksForAPrimaryControllerFirst() throws {
        let (vhci, driver) = try Self.pair()
        defer { vhci.close(); close(driver) }
        #expect(Self.readMessage(driver) == [0xFF, 0x00])
    }

    /// The driver's reply names the new adapter and is not passed on; the kernel's
    /// commands that follow are, one packet per message.
    @Test func dropsVendorPacketsAndLearnsTheIndex() throws {
        let (vhci, driver) = try Self.pair()
        defer { vhci.close(); close(driver) }
        for message: [UInt8] in [[0xFF, 0x00, 0x02, 0x00], [0x01, 0x03, 0x0C, 0x00], [0xFF, 0x01], [0x01, 0x09, 0x10, 0x00]] {
            #expect(write(driver, message, message.count) == message.count)
        }
        var packets: [HCIPacket] = []
        for _ in 0..<4 { try vhci.receive { packets.append($0) } }
        #expect(vhci.adapterIndex == 2)
        #expect(packets.map(\.type) == [.command, .command])
        #expect(packets.map { Array($0.bytes) } == [[0x03, 0x0C, 0x00], [0x09, 0x10, 0x00]])
    }

    /// One `read` per call: the driver hands over one packet per read, and a second
    /// read would find nothing when one came. A packet still queued waits for the next
    /// call (the loop's `poll` sees the device still readable); none waiting hands none.
    @Test func takesOnePacketPerCall() throws {
        let (vhci, driver) = try Self.pair()
        defer { vhci.close(); close(driver) }
        for message: [UInt8] in [[0x01, 0x03, 0x0C, 0x00], [0x02, 0x40, 0x00, 0x01, 0x00, 0xAA]] {
            #expect(write(driver, message, message.count) == message.count)
        }
        var packets: [HCIPacket] = []
        try vhci.receive { packets.append($0) }
        #expect(packets.map(\.type) == [.command])
        try vhci.receive { packets.append($0) }
        #expect(packets.map(\.type) == [.command, .aclData])
        #expect(Array(packets[1].bytes) == [0x40, 0x00, 0x01, 0x00, 0xAA])
        try vhci.receive { packets.append($0) }
        #expect(packets.count == 2)
    }

    @Test func sendsOnePacketPerWrite() throws {
        let (vhci, driver) = try Self.pair()
        defer { vhci.close(); close(driver) }
        _ = Self.readMessage(driver)
        try vhci.send(HCIPacket(type: .event, bytes: [0x0E, 0x04, 0x01, 0x03, 0x0C, 0x00][...]))
        try vhci.send(HCIPacket(type: .aclData, bytes: [0x40, 0x00, 0x01, 0x00, 0xAA][...]))
        #expect(Self.readMessage(driver) == [0x04, 0x0E, 0x04, 0x01, 0x03, 0x0C, 0x00])
        #expect(Self.readMessage(driver) == [0x02, 0x40, 0x00, 0x01, 0x00, 0xAA])
    }

    @Test func openingAMissingDeviceSaysToLoadTheDriver() {
        do {
            _ = try VHCITransport(path: "/nonexistent/vhci", name: "vhci:/nonexistent/vhci")
            Issue.record("opened a missing device")
        } catch {
            #expect(error.description.contains("modprobe hci_vhci"), "\(error)")
            #expect(error.description.contains("ENOENT"), "\(error)")
        }
    }
}
