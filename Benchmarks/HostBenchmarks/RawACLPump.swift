#if canImport(Glibc)
import Glibc
#endif
import SwiftATTCore
import SwiftATTHCI
import SwiftATTL2CAP
import SwiftATTTransport

/// The ceiling of a link through Bumble's virtual controllers: two bare HCI clients (no
/// host stack) connect, then one pushes the exact ACL packets a notification of the
/// given size makes as fast as the controller's credits allow, and the other counts
/// them arriving. A host can be no faster than this over the same controllers
/// (BENCH.md: the Python controller process is the bottleneck), so swift-att's rate
/// there is reported as a share of it.
struct RawACLPump {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    let sender: StreamTransport
    let receiver: StreamTransport
    let handle: UInt16
    let bufferLength: Int
    var credits: Int

    /// Connects a sender (advertising, the peripheral) to a receiver (initiating).
    init(senderPort: UInt16, receiverPort: UInt16) throws {
        sender = try TCPTransport.connect(host: "127.0.0.1", port: senderPort, name: "tcp:127.0.0.1:\(senderPort)")
        receiver = try TCPTransport.connect(host: "127.0.0.1", port: receiverPort, name: "tcp:127.0.0.1:\(receiverPort)")
        // Random addresses: Bumble drops ACL on links made with public ones (BENCH.md quirk 2).
        let advertiser = BluetoothAddress(0xC0_5A_17_00_AC_01, kind: .random)
        for (t, address) in [(sender, advertiser), (receiver, BluetoothAddress(0xC0_5A_17_00_AC_02, kind: .random))] {
            _ = try Self.command(t, Reset().packet)
            _ = try Self.command(t, LESetRandomAddress(randomAddress: address).packet)
        }
        guard case let .commandComplete(buffers) = try Self.command(sender, LEReadBufferSize().packet),
              let sizes = try? buffers.returnParameters(for: LEReadBufferSize.self) else {
            throw Failure(description: "LE Read Buffer Size failed")
        }
        bufferLength = Int(sizes.leACLDataPacketLength)
        credits = Int(sizes.totalNumLEACLDataPackets)
        _ = try Self.command(sender, LESetAdvertisingParameters(advertisingIntervalMin: 32, advertisingIntervalMax: 32).packet)
        _ = try Self.command(sender, LESetAdvertisingData(advertisingData: [0x02, 0x01, 0x06]).packet)
        _ = try Self.command(sender, LESetAdvertisingEnable(advertisingEnable: true).packet)
        _ = try Self.command(receiver, LECreateConnection(
            scanInterval: 0x60, scanWindow: 0x60, peerAddress: advertiser,
            connectionParameters: .init(intervalMin: 24, intervalMax: 40, maxLatency: 0, supervisionTimeout: 400)).packet)
        _ = try Self.connectionHandle(receiver)
        handle = try Self.connectionHandle(sender)
    }

    func close() {
        try? sender.send(Disconnect(connectionHandle: handle).packet)
        sender.close()
        receiver.close()
    }

    /// Sends `warmup` then `count` notifications' worth of ACL packets; the wall time of
    /// the `count` ones, first send to last arrival.
    mutating func run(valueLength: Int, warmup: Int, count: Int) throws -> Sample {
        let notification = [0x1B, 0x03, 0x00] + [UInt8](repeating: 0xA5, count: valueLength)
        // Laid out as the host's send path lays them out.
        var packets: [HCIPacket] = []
        L2CAPFragmenter.encodePackets(channel: L2CAPChannelIdentifier.attribute, payload: EncodedBytes(notification),
                                      handle: handle, bufferLength: bufferLength) {
            packets.append(HCIPacket(type: .aclData, bytes: $0))
        }
        let total = warmup + count
        var sent = 0
        var received = 0
        let clock = ContinuousClock()
        var start = clock.now
        // Bounded in flight, so the figure is the controller's rate, not its buffering.
        let window = 64
        var fds = [pollfd(fd: sender.fileDescriptor, events: Int16(POLLIN), revents: 0),
                   pollfd(fd: receiver.fileDescriptor, events: Int16(POLLIN), revents: 0)]
        while received < total {
            while sent < total, sent - received < window, credits >= packets.count {
                for packet in packets { try sender.send(packet) }
                credits -= packets.count
                sent += 1
            }
            guard poll(&fds, 2, 10_000) > 0 else { throw Failure(description: "the controllers stopped forwarding (\(received)/\(total))") }
            if fds[0].revents != 0 {
                var returned = 0
                try sender.receive { packet in
                    guard packet.type == .event, case let .numberOfCompletedPackets(n)? = try? HCIEvent(parsing: packet.bytes) else { return }
                    for entry in n.entries { returned += Int(entry.numCompletedPackets) }
                }
                credits += returned
            }
            if fds[1].revents != 0 {
                var arrived = 0
                try receiver.receive { packet in
                    // Bumble delivers each L2CAP frame as one ACL packet (BENCH.md quirk 10);
                    // count frame starts so a fragmenting controller would count right too.
                    if packet.type == .aclData, let acl = try? ACLDataPacket(parsing: packet.bytes), acl.packetBoundary.isStart {
                        arrived += 1
                    }
                }
                received += arrived
                if received >= warmup && received - arrived < warmup { start = clock.now }
            }
        }
        return Sample(delivered: count, wallSeconds: (clock.now - start).seconds, cpuSeconds: .nan)
    }

    /// Sends a command and returns its Command Complete or Command Status.
    static func command(_ transport: StreamTransport, _ packet: HCICommandPacket) throws -> HCIEvent {
        try transport.send(packet)
        let deadline = ContinuousClock.now + .seconds(5)
        while ContinuousClock.now < deadline {
            for received in try transport.receive(timeout: .seconds(1)) where received.type == .event {
                let event = try HCIEvent(parsing: received.bytes)
                switch event {
                case let .commandComplete(c) where c.commandOpcode == packet.opcode: return event
                case let .commandStatus(s) where s.commandOpcode == packet.opcode: return event
                default: continue
                }
            }
        }
        throw Failure(description: "no answer to \(packet.opcode)")
    }

    /// Waits for an LE (Enhanced) Connection Complete and returns its handle.
    static func connectionHandle(_ transport: StreamTransport) throws -> UInt16 {
        let deadline = ContinuousClock.now + .seconds(5)
        while ContinuousClock.now < deadline {
            for received in try transport.receive(timeout: .seconds(1)) where received.type == .event {
                switch try HCIEvent(parsing: received.bytes) {
                case let .leMeta(.connectionComplete(c)) where c.status.isSuccess: return c.connectionHandle
                case let .leMeta(.enhancedConnectionComplete(c)) where c.status.isSuccess: return c.connectionHandle
                default: continue
                }
            }
        }
        throw Failure(description: "no connection")
    }
}
