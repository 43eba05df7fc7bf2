import SwiftATTL2CAP

/// Target `le-signaling`: one frame on the LE signaling channel (CID 0x0005), and the
/// same bytes on the Security Manager channel (0x0006), as a peer sends them.
///
/// Input: one octet (bit 0: this device is the central), then the frame. The responders
/// never trap. A signaling frame that parses gets at most one reply, which parses as a
/// Command Reject or Connection Parameter Update Response with the request's
/// identifier; parameters are accepted only by a central and only when they pass the
/// spec's checks. One that does not parse gets no reply. The SMP answer, if any, is
/// Pairing Failed.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLESignaling(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let isCentral = (input.byte() ?? 0) & 1 == 1
    let frame = input.rest()
    let outcome = LESignalingResponder.handle(offsetSlice(frame), isCentral: isCentral)
    let request = try? LESignalingPacket(parsing: frame[...])
    if let reason = outcome.dropped {
        blackHole(reason.description)
        require(request == nil && outcome.reply == nil, "a frame that parses was dropped, or a drop was answered")
    }
    if let reply = outcome.reply {
        guard let request, let answer = try? LESignalingPacket(parsing: reply[...]) else {
            require(false, "a reply to an unparsed frame, or a reply that does not parse")
            return 0
        }
        require(answer.identifier == request.identifier, "reply identifier \(answer.identifier), request \(request.identifier)")
        require(answer.code == LESignalingPacket.commandReject || answer.code == LESignalingPacket.connectionParameterUpdateResponse,
                "reply code 0x\(String(answer.code, radix: 16))")
        require(answer.code != LESignalingPacket.connectionParameterUpdateResponse || isCentral, "a peripheral answered an update")
    }
    if let accepted = outcome.acceptedParameters {
        require(isCentral && accepted.isAcceptable, "accepted parameters a central would refuse")
        require((try? ConnectionParameterUpdateRequest(parsing: accepted.encoded()[...])) == accepted, "parameters re-encode differently")
    }
    return 0
}
