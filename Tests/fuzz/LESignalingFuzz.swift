import SwiftATTL2CAP

/// Target `le-signaling`: one frame on the LE signaling channel (CID 0x0005), as a peer
/// sends it, through the codec and the responder.
///
/// Input: one octet (bit 0: this device is the central), then the frame. Nothing traps.
/// The codec: a frame that decodes as an `LESignalingFrame` encodes back to exactly its
/// octets, and so does its command's data decoded on its own (at a non-zero
/// `startIndex`); `validate()` and every error's description run. The responder: a frame
/// whose header does not parse is dropped unanswered; any other gets at most one reply,
/// which decodes, carries the request's identifier, and answers a request or unknown
/// code only — Command Reject, or the request's own response, refusing every channel
/// (as many 0x0000 CIDs as the ECFC request asked for). Parameters are accepted only by
/// a central and only when they pass the spec's checks.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLESignaling(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let isCentral = (input.byte() ?? 0) & 1 == 1
    let frame = input.rest()
    checkCodec(frame)
    checkResponder(frame, isCentral: isCentral)
    return 0
}

/// Decode, validate, re-encode.
private func checkCodec(_ frame: [UInt8]) {
    let decoded: LESignalingFrame
    do {
        decoded = try LESignalingFrame(parsing: offsetSlice(frame))
    } catch {
        blackHole(error.description)
        return
    }
    require(decoded.encoded() == frame, "a decoded frame re-encodes differently: \(decoded)")
    require(decoded.encodedLength == frame.count, "encodedLength \(decoded.encodedLength), frame \(frame.count)")
    let command = decoded.command
    require(command.code.allowedDataLengths.contains(command.dataLength), "\(command.code) decoded from a length it does not allow")
    // The data alone, as the channel layer would decode it from a packet.
    let data = Array(frame.dropFirst(LESignalingPacket.headerLength))
    require((try? LESignalingCommand(code: frame[0], data: offsetSlice(data))) == command, "the data alone decodes differently")
    blackHole(validationMessage(command))
}

/// Runs the command's `validate()`, and the answer its error maps to.
private func validationMessage(_ command: LESignalingCommand) -> String? {
    do throws(CreditBasedParameterError) {
        switch command {
        case let .leCreditBasedConnectionRequest(c): try c.validate()
        case let .leCreditBasedConnectionResponse(c): try c.validate()
        case let .flowControlCreditIndication(c): try c.validate()
        case let .creditBasedConnectionRequest(c): try c.validate()
        case let .creditBasedConnectionResponse(c): try c.validate()
        case let .creditBasedReconfigureRequest(c): try c.validate()
        default: return nil
        }
    } catch {
        require(!error.allowed.contains(error.value), "a value in range was refused: \(error)")
        return "\(error) \(error.leCreditBasedConnectionResult) \(error.creditBasedConnectionResult) \(error.creditBasedReconfigureResult)"
    }
    return nil
}

private func checkResponder(_ frame: [UInt8], isCentral: Bool) {
    let outcome = LESignalingResponder.handle(offsetSlice(frame), isCentral: isCentral)
    let request = try? LESignalingPacket(parsing: frame[...])
    if let reason = outcome.dropped {
        blackHole(reason.description)
        require(request == nil && outcome.reply == nil, "a frame that parses was dropped, or a drop was answered")
        return
    }
    guard let request else {
        require(false, "a frame whose header does not parse was not dropped")
        return
    }
    if let malformed = outcome.malformed { blackHole(malformed.description) }
    let requestCode = LESignalingCode(rawValue: request.code)
    if let accepted = outcome.acceptedParameters {
        require(isCentral && accepted.isAcceptable, "accepted parameters a central would refuse")
        require(requestCode == .connectionParameterUpdateRequest, "parameters accepted from another command")
    }
    guard let reply = outcome.reply else {
        require(requestCode?.isRequest == false, "a request or unknown code went unanswered: \(Array(frame.prefix(8)))")
        return
    }
    guard let answer = try? LESignalingFrame(parsing: reply[...]) else {
        require(false, "a reply that does not decode: \(reply)")
        return
    }
    require(answer.identifier == request.identifier, "reply identifier \(answer.identifier), request \(request.identifier)")
    require(requestCode?.isRequest ?? true, "answered \(String(describing: requestCode)), which is not a request")
    switch answer.command {
    case .commandReject:
        break
    case .connectionParameterUpdateResponse:
        require(isCentral && requestCode == .connectionParameterUpdateRequest, "a peripheral answered an update, or an update answered another command")
    case let .leCreditBasedConnectionResponse(response):
        require(requestCode == .leCreditBasedConnectionRequest && response == .refused(response.result) && response.result != .success,
                "an LE credit-based answer that is not a refusal of one")
    case let .creditBasedConnectionResponse(response):
        require(requestCode == .creditBasedConnectionRequest && response.result.refusesAll, "an ECFC answer that does not refuse all")
        let asked = (try? CreditBasedConnectionRequest(parsing: request.data))?.sourceCIDs.count ?? 0
        require(response == .refused(response.result, count: asked), "an ECFC refusal with \(response.destinationCIDs.count) CIDs for \(asked)")
    case let .creditBasedReconfigureResponse(response):
        require(requestCode == .creditBasedReconfigureRequest && response.result != .success, "a reconfiguration accepted")
    default:
        require(false, "reply \(answer.command.code) is not an answer")
    }
}
