#if canImport(Glibc)
import Glibc
#endif
import CSwiftATTBluetooth
import Testing
@testable import SwiftATTTransport
import SwiftATTHCI

@Suite struct HCISocketTransportTests {
    @Test func adapterNames() {
        #expect(HCISocketTransport.index(of: "hci0") == 0)
        #expect(HCISocketTransport.index(of: "hci15") == 15)
        #expect(HCISocketTransport.index(of: "hci16") == nil)  // HCI_MAX_DEV
        #expect(HCISocketTransport.index(of: "hci01") == nil)
        #expect(HCISocketTransport.index(of: "HCI0") == nil)
        #expect(HCISocketTransport.index(of: "hci") == nil)
    }

    /// The address bound for the user channel: family AF_BLUETOOTH (31), the adapter's
    /// index, channel 1, in the kernel's 6-byte layout.
    @Test func userChannelSocketAddress() {
        var address = HCISocketTransport.socketAddress(index: 3, channel: UInt16(HCI_CHANNEL_USER))
        #expect(MemoryLayout<sockaddr_hci>.size == 6)
        let bytes = withUnsafeBytes(of: &address) { Array($0) }
        #expect(bytes == [31, 0, 3, 0, 1, 0])
    }

    /// The ioctl numbers are computed by the C headers (_IOW('H', 202, int) …).
    @Test func ioctlNumbers() {
        #expect(CBLUETOOTH_HCIDEVDOWN == 0x4004_48CA)
        #expect(CBLUETOOTH_HCIDEVUP == 0x4004_48C9)
        #expect(CBLUETOOTH_HCIGETDEVINFO == 0x8004_48D3)
    }

    @Test(arguments: [
        (EAFNOSUPPORT, TransportError.kernelLacksBluetooth),
        (EBUSY, .adapterBusy("hci0")),
        (EUSERS, .adapterBusy("hci0")),
        (EPERM, .permissionDenied("hci0")),
        (EACCES, .permissionDenied("hci0")),
        (ENODEV, .noSuchAdapter("hci0", available: ["hci1"])),
        (ERFKILL, .rfkillBlocked("hci0")),
        (EIO, .systemCall("bind(HCI_CHANNEL_USER)", Errno(EIO), context: "hci0")),
    ])
    func errnoMapping(_ code: Int32, _ expected: TransportError) {
        let mapped = HCISocketTransport.error(for: Errno(code), call: "bind(HCI_CHANNEL_USER)", adapter: "hci0") { ["hci1"] }
        #expect(mapped == expected)
    }

    @Test func messagesSayWhatToDo() {
        #expect(TransportError.kernelLacksBluetooth.description.hasPrefix("this kernel has no Bluetooth support (AF_BLUETOOTH)"))
        #expect(TransportError.adapterBusy("hci0").description.contains("systemctl stop bluetooth"))
        #expect(TransportError.adapterBusy("hci0").description.contains("btmgmt -i hci0 power off"))
        #expect(TransportError.permissionDenied("hci0").description.contains("setcap cap_net_admin+ep"))
        #expect(TransportError.noSuchAdapter("hci7", available: ["hci0"]).description.contains("hci0"))
        #expect(TransportError.noSuchAdapter("hci7", available: []).description.contains("no Bluetooth adapters"))
        #expect(TransportError.rfkillBlocked("hci0").description.contains("rfkill unblock bluetooth"))
        #expect(TransportError.systemCall("read", Errno(ECONNRESET), context: "tcp:x:1").description.contains("ECONNRESET"))
    }

    /// On a kernel without Bluetooth (these CI machines) opening hci0 fails with exactly
    /// the kernel message; on a kernel with it, with one of the adapter messages.
    @Test func openingHci0OnThisKernel() {
        let probe = socket(AF_BLUETOOTH, Int32(SOCK_RAW.rawValue), BTPROTO_HCI)
        let kernelHasBluetooth = probe >= 0 || errno != EAFNOSUPPORT
        if probe >= 0 { close(probe) }
        do {
            let transport = try HCISocketTransport(name: "hci0")
            transport.close()
            #expect(kernelHasBluetooth)
        } catch {
            if kernelHasBluetooth {
                #expect(error != .kernelLacksBluetooth)
            } else {
                #expect(error == .kernelLacksBluetooth)
                #expect(error.description.hasPrefix("this kernel has no Bluetooth support (AF_BLUETOOTH)"))
            }
        }
    }

    /// One `read` per call, as the user channel hands over one packet per read (a
    /// SOCK_SEQPACKET pair stands in for it): a second read would find nothing when one
    /// packet came, and one still queued waits for the next call.
    @Test func takesOnePacketPerCall() throws {
        var fds: [Int32] = [-1, -1]
        try #require(socketpair(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue), 0, &fds) == 0)
        let transport = try HCISocketTransport(name: "hci0", index: 0, fileDescriptor: fds[0])
        defer { transport.close(); close(fds[1]) }
        for message: [UInt8] in [[0x04, 0x0E, 0x04, 0x01, 0x09, 0x10, 0x00], [0x02, 0x40, 0x00, 0x01, 0x00, 0xAA]] {
            #expect(write(fds[1], message, message.count) == message.count)
        }
        var packets: [HCIPacket] = []
        try transport.receive { packets.append($0) }
        #expect(packets.map(\.type) == [.event])
        #expect(Array(packets[0].bytes) == [0x0E, 0x04, 0x01, 0x09, 0x10, 0x00])
        try transport.receive { packets.append($0) }
        try transport.receive { packets.append($0) }
        #expect(packets.map(\.type) == [.event, .aclData])
        // The H4 indicator goes out first, then the packet, in one write.
        try transport.send(HCIPacket(type: .command, bytes: [0x03, 0x0C, 0x00][...]))
        var buffer = [UInt8](repeating: 0, count: 64)
        let n = read(fds[1], &buffer, buffer.count)
        #expect(Array(buffer[..<max(n, 0)]) == [0x01, 0x03, 0x0C, 0x00])
    }
}
