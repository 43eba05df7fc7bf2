import SwiftATTCore
import SwiftATTHCI

/// Target `h4`: the byte stream from a controller over UART or TCP (H4), cut into the
/// arbitrary chunks a read returns, driving what the host's transport loop drives.
///
/// Input: one octet that seeds the chunk sizes (and which way packets are taken out),
/// then the stream. The deframer never traps, hands out packets that are exactly the
/// stream's bytes in order, holds no more than one packet's worth of unframed bytes, and
/// stops for good at a bad indicator.
/// Each event goes to an `HCICommandFlow` (commands kept in flight; every one settles at
/// most once, the books balance) and an `ACLFlow` (Number Of Completed Packets and
/// Disconnection Complete never free more buffers than exist).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzH4Deframer(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    var seed = UInt32(input.byte() ?? 0) &* 2_654_435_761 | 1
    let stream = input.rest()
    var deframer = H4Deframer()
    var host = HostLoop()
    var appended = 0
    var framed: [UInt8] = []
    framed.reserveCapacity(stream.count)
    var failed = false
    while appended < stream.count, !failed {
        seed = seed &* 1_103_515_245 &+ 12_345
        let length = seed >> 28 == 0 ? stream.count : Int(seed >> 16 & 0x3F) + 1
        let end = min(stream.count, appended + length)
        let chunk = stream[appended..<end]
        appended = end
        do {
            // Three ways of taking packets out, chosen by the seed: the transports'
            // (`feed`, views of the chunk while nothing is buffered), `forEachPacket`
            // and `next()` after `append`.
            func take(_ packet: HCIPacket) {
                framed.append(packet.type.rawValue)
                framed.append(contentsOf: packet.bytes)
                host.handle(packet)
            }
            if seed & 0x200 != 0 {
                try deframer.feed(chunk, take)
            } else if seed & 0x100 != 0 {
                deframer.append(chunk)
                try deframer.forEachPacket(take)
            } else {
                deframer.append(chunk)
                while let packet = try deframer.next() { take(packet) }
            }
        } catch {
            blackHole(error.description)
            failed = true
        }
        require(framed.count + deframer.pendingByteCount == appended, "bytes lost or duplicated")
        require(deframer.pendingByteCount <= 1 + 4 + 65_535, "\(deframer.pendingByteCount) unframed bytes held")
    }
    require(stream.starts(with: framed), "packets are not the stream's bytes in order")
    host.finish()
    return 0
}

/// The parts of the host's event loop that consume controller events, without I/O.
private struct HostLoop {
    var commands = HCICommandFlow<Int>(initialCredits: 1)
    var acl = ACLFlow(bufferCount: 4, bufferLength: 27)
    var now = MonotonicInstant.now
    var submitted = 0
    var settled: Set<Int> = []
    static let opcodes: [UInt16] = [0x0C03, 0x2002, 0x1009, 0x200B, 0x0406, 0x2016]

    init() {
        for _ in 0..<3 { submit() }
        sendACL(on: 0x0040)
        sendACL(on: 0x0041)
    }

    mutating func submit() {
        let opcode = HCIOpcode(rawValue: Self.opcodes[submitted % Self.opcodes.count])
        _ = commands.submit(HCICommandPacket(opcode: opcode, parameters: []), token: submitted,
                            timeout: .seconds(2), now: now)
        submitted += 1
    }

    mutating func sendACL(on handle: UInt16) {
        let fragment = ACLDataPacket(handle: handle, packetBoundary: .firstNonFlushable, data: [0x01, 0x00, 0x04, 0x00, 0x1B][...])
        acl.enqueue([fragment, fragment], on: handle)
        _ = acl.dequeue()
    }

    mutating func handle(_ packet: HCIPacket) {
        now += .milliseconds(250)
        settle(commands.expire(now: now).outcomes)
        switch packet.type {
        case .event:
            guard let event = try? HCIEvent(parsing: packet.bytes) else { return }
            settle(commands.receive(event, now: now).outcomes)
            switch event {
            case let .numberOfCompletedPackets(completed):
                for entry in completed.entries {
                    acl.completed(Int(entry.numCompletedPackets), on: entry.connectionHandle)
                }
                sendACL(on: 0x0040)
            case let .disconnectionComplete(disconnection):
                acl.disconnected(disconnection.connectionHandle)
            default:
                break
            }
        case .aclData:
            blackHole(try? ACLDataPacket(parsing: packet.bytes))
        case .command, .synchronousData, .isoData:
            blackHole(try? HCICommandPacket(parsing: packet.bytes))
        }
        require(acl.available >= 0 && acl.available <= acl.bufferCount, "ACL buffers available: \(acl.available)")
        let inFlight = [UInt16(0x0040), 0x0041].reduce(0) { $0 + acl.inFlight(on: $1) }
        require(inFlight + acl.available <= acl.bufferCount, "ACL buffers: \(inFlight) in flight, \(acl.available) free")
    }

    mutating func settle(_ outcomes: [HCICommandFlow<Int>.Outcome]) {
        for outcome in outcomes {
            let token: Int
            switch outcome {
            case let .complete(t, _), let .status(t, _), let .timedOut(t, _): token = t
            }
            require(settled.insert(token).inserted, "command \(token) settled twice")
            submit()
        }
        require(commands.waitingCount + commands.inFlightCount == submitted - settled.count,
                "commands: \(commands.waitingCount) waiting + \(commands.inFlightCount) in flight, \(submitted - settled.count) open")
    }

    mutating func finish() {
        let cancelled = commands.cancelAll()
        require(cancelled.count == submitted - settled.count, "cancelAll returned \(cancelled.count) tokens")
    }
}
