import SwiftATTHCI

/// Target `hci-event`: one HCI event packet (no H4 indicator), as a controller sends it.
///
/// Decoding never traps: it fails with a typed error, or gives an event that re-encodes
/// to bytes decoding to the same event, and decodes the same at any slice offset. A
/// Command Complete's return parameters are decoded for the command its opcode names, as
/// the host and `swift-att dump` do. The same bytes are also decoded as a command packet
/// with its parameters (`dump` reads commands out of captures).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHCIEvent(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let bytes = input.rest()
    decodeEvent(bytes)
    decodeCommand(bytes)
    return 0
}

private func decodeEvent(_ bytes: [UInt8]) {
    let event: HCIEvent
    do {
        event = try HCIEvent(parsing: bytes[...])
    } catch {
        _ = error.description
        require((try? HCIEvent(parsing: offsetSlice(bytes))) == nil, "event decodes only at an offset")
        return
    }
    require((try? HCIEvent(parsing: offsetSlice(bytes))) == event, "event decodes differently at an offset")
    let again = event.packet.encoded()
    require(again.count == event.packet.encodedLength, "event encodedLength disagrees")
    require((try? HCIEvent(parsing: again[...])) == event, "event re-encodes to bytes that decode differently")
    switch event {
    case let .commandComplete(complete):
        _ = try? complete.decodedReturnParameters()
        blackHole(complete.status)
    case let .leMeta(meta):
        blackHole(meta.subevent)
    default:
        break
    }
}

private func decodeCommand(_ bytes: [UInt8]) {
    guard let packet = try? HCICommandPacket(parsing: bytes[...]) else { return }
    require(packet.encoded() == bytes, "command packet re-encodes differently")
    do {
        guard let command = try packet.decodedCommand() else { return }
        let again = command.packet
        require(HCICommandNames.entry(for: again.opcode) != nil, "decoded command has an unknown opcode")
        require((try? again.decodedCommand()) != nil, "command re-encodes to parameters that do not decode")
    } catch {
        _ = error.description
    }
}
