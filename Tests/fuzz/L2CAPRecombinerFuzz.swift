import SwiftATTHCI
import SwiftATTL2CAP

/// Target `l2cap`: ACL fragments for several connections, interleaved, fed to the
/// recombiner the way the host's loop feeds every inbound ACL packet.
///
/// Input: one octet choosing the payload limit, then per fragment a control octet (bits
/// 0-1: which of four handles, bits 2-3: Packet_Boundary_Flag, bit 4: the connection
/// drops first) and a record with the fragment's data. The recombiner never traps, and
/// agrees frame for frame with a straightforward model: per handle, join a start fragment
/// and its continuations; a frame is complete when its basic header's length is met,
/// dropped when exceeded or over the limit. No handle keeps a partial frame the model
/// does not, and none holds more than the limit plus its header. `wholeFrame(in:)`, the
/// host's shortcut, agrees with `push` on every packet.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzL2CAPRecombiner(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let limits = [2048, 23, 64, 517]
    let limit = limits[Int(input.byte() ?? 0) & 3]
    let handles: [UInt16] = [0x0040, 0x0041, 0x0EFF, 0x0000]
    var recombiner = L2CAPRecombiner(maximumPayloadLength: limit)
    var model = RecombinerModel(limit: limit)
    while let control = input.byte(), let fragment = input.record() {
        let handle = handles[Int(control & 3)]
        if control & 0x10 != 0 {
            recombiner.reset(handle: handle)
            model.partials[handle] = nil
        }
        let boundary = ACLDataPacket.PacketBoundary(rawValue: control >> 2 & 3) ?? .continuing
        let packet = ACLDataPacket(handle: handle, packetBoundary: boundary, data: fragment[...])
        // The host's shortcut for a frame in one packet must be what `push` does, and be
        // taken whenever `push` completes a frame from one packet with nothing pending.
        let encoded = packet.encoded()
        let whole = recombiner.wholeFrame(in: encoded[...])
        let nothingPending = recombiner.pendingCount == 0
        let outcome = recombiner.push(packet)
        if let whole {
            require(outcome.dropped == nil && outcome.frame == L2CAPFrame(connectionHandle: whole.handle, channel: whole.channel, payload: encoded[whole.payload]),
                    "wholeFrame(in:) and push disagree")
        } else {
            require(!(nothingPending && boundary.isStart && outcome.frame != nil && outcome.dropped == nil),
                    "push completed a frame from one packet that wholeFrame(in:) did not take")
        }
        let expected = model.push(fragment, handle: handle, isStart: boundary.isStart)
        require(outcome.frame?.channel == expected?.channel, "channel \(String(describing: outcome.frame?.channel)), model \(String(describing: expected?.channel))")
        require(outcome.frame?.payload.elementsEqual(expected?.payload ?? []) ?? (expected == nil), "payload differs from the model")
        if let frame = outcome.frame {
            require(frame.connectionHandle == handle, "frame for handle \(frame.connectionHandle), fragment on \(handle)")
            require(frame.payload.count <= limit, "frame of \(frame.payload.count) bytes over the limit \(limit)")
        }
        if let reason = outcome.dropped { blackHole(reason.description) }
        require(recombiner.pendingCount == model.partials.count,
                "\(recombiner.pendingCount) partial frames, model \(model.partials.count)")
    }
    return 0
}

/// Recombination as Core 5.4 Vol 3 Part A §7.2 describes it, written for clarity.
private struct RecombinerModel {
    let limit: Int
    var partials: [UInt16: [UInt8]] = [:]

    mutating func push(_ data: [UInt8], handle: UInt16, isStart: Bool) -> (channel: UInt16, payload: [UInt8])? {
        var bytes: [UInt8]
        if isStart {
            partials[handle] = nil
            bytes = data
        } else {
            // Taken out of the dictionary, the partial frame is the only reference to its
            // storage and grows in place: `partial + data` copied it for every fragment,
            // quadratic in the frame's length and most of this target's time on long frames.
            guard var partial = partials.removeValue(forKey: handle) else { return nil }
            partial.append(contentsOf: data)
            bytes = partial
        }
        guard bytes.count >= 4 else {
            partials[handle] = bytes
            return nil
        }
        let length = Int(bytes[0]) | Int(bytes[1]) << 8
        let channel = UInt16(bytes[2]) | UInt16(bytes[3]) << 8
        guard length <= limit, bytes.count - 4 <= length else { return nil }
        guard bytes.count - 4 == length else {
            partials[handle] = bytes
            require(bytes.count <= limit + 4, "model holds too much")
            return nil
        }
        return (channel, Array(bytes[4...]))
    }
}
