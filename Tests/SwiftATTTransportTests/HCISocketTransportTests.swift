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

    /// The packets waiting, each whole, in one call (one `recvmmsg`), as the user
    /// channel keeps packets apart (a SOCK_SEQPACKET pair stands in for it); nothing
    /// waiting is no error; a burst longer than a batch is taken over several calls, in
    /// order.
    @Test func takesTheWaitingPacketsWholeInOneCall() throws {
        var fds: [Int32] = [-1, -1]
        try #require(socketpair(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue), 0, &fds) == 0)
        let transport = try HCISocketTransport(name: "hci0", index: 0, fileDescriptor: fds[0])
        defer { transport.close(); close(fds[1]) }
        var packets: [HCIPacket] = []
        try transport.receive { packets.append($0) }
        #expect(packets.isEmpty)
        for message: [UInt8] in [[0x04, 0x0E, 0x04, 0x01, 0x09, 0x10, 0x00], [0x02, 0x40, 0x00, 0x01, 0x00, 0xAA]] {
            #expect(write(fds[1], message, message.count) == message.count)
        }
        try transport.receive { packets.append($0) }
        #expect(packets.map(\.type) == [.event, .aclData])
        #expect(Array(packets[0].bytes) == [0x0E, 0x04, 0x01, 0x09, 0x10, 0x00])
        #expect(Array(packets[1].bytes) == [0x40, 0x00, 0x01, 0x00, 0xAA])

        // Twenty Number Of Completed Packets, then one ACL packet as long as any can be.
        packets.removeAll()
        for n in 0..<20 {
            let event: [UInt8] = [0x04, 0x13, 0x05, 0x01, 0x40, 0x00, UInt8(n), 0x00]
            #expect(write(fds[1], event, event.count) == event.count)
        }
        let longest = [UInt8]([0x02, 0x40, 0x00, 0xFF, 0xFF]) + (0..<65535).map { UInt8(truncatingIfNeeded: $0) }
        #expect(write(fds[1], longest, longest.count) == longest.count)
        var calls = 0
        while packets.count < 21, calls < 10 {
            try transport.receive { packets.append($0) }
            calls += 1
        }
        #expect(calls == 3)  // 8 + 8 + 5
        #expect(packets.prefix(20).map { $0.bytes.dropFirst(5).first } == (0..<20).map { UInt8($0) })
        #expect(packets.last.map { Array($0.bytes) } == Array(longest.dropFirst()))
    }

    /// A command goes to the user channel as one message: its H4 bytes, framed on the
    /// stack.
    @Test func aCommandIsOneMessageOfItsH4Bytes() throws {
        var fds: [Int32] = [-1, -1]
        try #require(socketpair(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue), 0, &fds) == 0)
        let transport = try HCISocketTransport(name: "hci0", index: 0, fileDescriptor: fds[0])
        defer { transport.close(); close(fds[1]) }
        let parameters: [UInt8] = [0x01, 0x02, 0x03]
        try transport.send(command: HCICommandPacket(opcode: HCIOpcode(rawValue: 0x2005), parameters: parameters[...]))
        try transport.send(command: HCICommandPacket(opcode: Reset.opcode, parameters: []))
        var message = [UInt8](repeating: 0, count: 300)
        #expect(read(fds[1], &message, message.count) == 7)
        #expect(message.prefix(7) == [0x01, 0x05, 0x20, 0x03, 0x01, 0x02, 0x03])
        #expect(read(fds[1], &message, message.count) == 4)
        #expect(message.prefix(4) == [0x01, 0x03, 0x0C, 0x00])
    }

    /// After a command's answer the next call takes one packet (a `read`: a host keeps
    /// one command in flight, so its answer comes alone); after anything else, all that
    /// wait.
    @Test func afterACommandsAnswerOnePacketPerCall() throws {
        var fds: [Int32] = [-1, -1]
        try #require(socketpair(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue), 0, &fds) == 0)
        let transport = try HCISocketTransport(name: "hci0", index: 0, fileDescriptor: fds[0])
        defer { transport.close(); close(fds[1]) }
        let complete: [UInt8] = [0x04, 0x0E, 0x04, 0x01, 0x09, 0x10, 0x00]
        let status: [UInt8] = [0x04, 0x0F, 0x04, 0x00, 0x01, 0x0D, 0x20]
        let completed: [UInt8] = [0x04, 0x13, 0x05, 0x01, 0x40, 0x00, 0x01, 0x00]
        var perCall: [[UInt8]] = []
        func receive() throws {
            var codes: [UInt8] = []
            try transport.receive { codes.append($0.bytes.first ?? 0) }
            perCall.append(codes)
        }
        #expect(write(fds[1], complete, complete.count) == complete.count)
        try receive()
        for message in [status, completed, completed, completed] {
            #expect(write(fds[1], message, message.count) == message.count)
        }
        for _ in 0..<4 { try receive() }
        // Command Status alone after Command Complete; one Number Of Completed Packets
        // after Command Status; then the two left at once.
        #expect(perCall == [[0x0E], [0x0F], [0x13], [0x13, 0x13], []])
    }

    /// Several packets go out each as its own packet, with its H4 indicator first.
    @Test func sendsSeveralPacketsEachWhole() throws {
        var fds: [Int32] = [-1, -1]
        try #require(socketpair(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue), 0, &fds) == 0)
        let transport = try HCISocketTransport(name: "hci0", index: 0, fileDescriptor: fds[0])
        defer { transport.close(); close(fds[1]) }
        try transport.send(HCIPacket(type: .command, bytes: [0x03, 0x0C, 0x00][...]))
        let acl = (0..<11).map { n in HCIPacket(type: .aclData, bytes: [0x40, 0x00, 0x01, 0x00, UInt8(n)][...]) }
        try transport.send(contentsOf: acl)
        try transport.send(contentsOf: [])
        var received: [[UInt8]] = []
        var buffer = [UInt8](repeating: 0, count: 64)
        while true {
            let n = recv(fds[1], &buffer, buffer.count, Int32(MSG_DONTWAIT))
            guard n > 0 else { break }
            received.append(Array(buffer[..<n]))
        }
        #expect(received == [[0x01, 0x03, 0x0C, 0x00]] + (0..<11).map { [0x02, 0x40, 0x00, 0x01, 0x00, UInt8($0)] })
    }

    /// The peer gone (the socket pair's other end closed) ends the transport.
    @Test func aClosedPeerIsTheEnd() throws {
        var fds: [Int32] = [-1, -1]
        try #require(socketpair(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue), 0, &fds) == 0)
        let transport = try HCISocketTransport(name: "hci0", index: 0, fileDescriptor: fds[0])
        defer { transport.close() }
        close(fds[1])
        #expect(throws: TransportError.closed("hci0")) { try transport.receive { _ in } }
    }
}
