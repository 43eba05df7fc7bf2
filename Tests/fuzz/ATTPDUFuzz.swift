import SwiftATTPDU

/// Target `att`: one ATT PDU, the bytes a peer sends on L2CAP channel 0x0004.
///
/// Decoding never traps; it fails with a typed error or gives a PDU whose views (lists,
/// tuples, handles) can be walked, that decodes the same at any slice offset, and that
/// re-encodes to exactly the input bytes: every PDU this codec accepts has one wire form
/// (ATTPDUCodable's promise), so there is no non-canonical input to exempt. The borrowed
/// decode (`ATTPDU.Borrowed` from a span) gives the same PDU or the same error.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzATTPDU(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let bytes = input.rest()
    let pdu: ATTPDU
    do throws(ATTDecodingError) {
        pdu = try ATTPDU(parsing: bytes[...])
    } catch {
        _ = error.description
        require((try? ATTPDU(parsing: offsetSlice(bytes))) == nil, "decodes only at an offset")
        require(borrowed(bytes) == .failure(error), "the borrowed decode does not throw \(error)")
        return 0
    }
    require((try? borrowed(bytes).get().owned(in: bytes[...])) == pdu, "the borrowed decode differs")
    require((try? ATTPDU(parsing: offsetSlice(bytes))) == pdu, "decodes differently at an offset")
    require(pdu.opcode.rawValue == bytes[0], "opcode \(pdu.opcode) from byte \(bytes[0])")
    require(pdu.encodedLength == bytes.count, "encodedLength \(pdu.encodedLength) for \(bytes.count) bytes")
    require(pdu.encoded() == bytes, "re-encodes differently")
    walkViews(pdu)
    return 0
}

private func borrowed(_ bytes: [UInt8]) -> Result<ATTPDU.Borrowed, ATTDecodingError> {
    Result { () throws(ATTDecodingError) in try ATTPDU.Borrowed(parsing: bytes.span) }
}

/// Reads every entry of the PDU's lists, and rebuilds the lists that have a builder.
private func walkViews(_ pdu: ATTPDU) {
    var total = 0
    switch pdu {
    case let .findInformationResponse(r):
        for entry in r.informationData { total &+= Int(entry.handle) &+ entry.uuid.hashValue }
    case let .findByTypeValueResponse(r):
        let list = Array(r.handlesInformationList)
        total &+= list.count
        require((try? FindByTypeValueResponse(list)) == r, "Find By Type Value Response rebuilds differently")
    case let .readByTypeResponse(r):
        for entry in r.attributeDataList { total &+= Int(entry.handle) &+ entry.value.count }
    case let .readByGroupTypeResponse(r):
        let list = Array(r.attributeDataList)
        total &+= list.count
        require((try? ReadByGroupTypeResponse(list)) == r, "Read By Group Type Response rebuilds differently")
    case let .readMultipleRequest(r):
        for handle in r.setOfHandles { total &+= Int(handle) }
    case let .readMultipleVariableRequest(r):
        for handle in r.setOfHandles { total &+= Int(handle) }
    case let .readMultipleVariableResponse(r):
        let tuples = Array(r.lengthValueTupleList)
        require(ATTTupleList(tuples, hasHandles: false).bytes.elementsEqual(r.lengthValueTupleList.bytes),
                "Read Multiple Variable Response tuples rebuild differently")
    case let .multipleHandleValueNotification(n):
        let tuples = Array(n.handleLengthValueTupleList)
        require(tuples.allSatisfy { !$0.isTruncated }, "a notification tuple is truncated")
        require(ATTTupleList(tuples, hasHandles: true).bytes.elementsEqual(n.handleLengthValueTupleList.bytes),
                "Multiple Handle Value Notification tuples rebuild differently")
    case let .signedWriteCommand(c):
        total &+= Int(c.signCounter)
    default:
        break
    }
    blackHole(total)
}
