import SwiftATTHCI

/// Target `btsnoop`: a capture file, as `swift-att dump` reads one from disk.
///
/// Reading never traps and never reads past the file: every record is a view inside
/// it, the reader stops at the first malformed record with a typed error, and
/// `records(in:)` agrees with walking the reader. Each record's packet is then decoded
/// the way `dump` does (events, ACL, commands); those decoders may fail, typed.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBTSnoop(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let file = input.rest()
    var reader: BTSnoop.Reader
    do {
        reader = try BTSnoop.Reader(file[...])
    } catch {
        blackHole(error.description)
        return 0
    }
    var walked: [BTSnoop.Record] = []
    var failure: HCIDecodingError?
    while true {
        do {
            guard let record = try reader.next() else { break }
            require(record.packet.startIndex >= 16 && record.packet.endIndex <= file.count,
                    "record \(walked.count) lies outside the file")
            decode(record)
            walked.append(record)
        } catch {
            blackHole(error.description)
            failure = error
            break
        }
    }
    require(reader.index >= walked.count, "reader index \(reader.index) behind \(walked.count) records")
    do {
        let all = try BTSnoop.records(in: file)
        require(failure == nil && all == walked, "records(in:) disagrees with the reader")
    } catch {
        require(failure == error, "records(in:) fails with \(error), the reader with \(String(describing: failure))")
    }
    return 0
}

private func decode(_ record: BTSnoop.Record) {
    switch record.packetType {
    case .event: blackHole(try? HCIEvent(parsing: record.packet))
    case .aclData: blackHole(try? ACLDataPacket(parsing: record.packet))
    case .command:
        if let packet = try? HCICommandPacket(parsing: record.packet) { blackHole(try? packet.decodedCommand()) }
    case .synchronousData, .isoData: break
    }
}
