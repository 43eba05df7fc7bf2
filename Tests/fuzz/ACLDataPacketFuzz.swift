import SwiftATTHCI

/// Target `hci-acl`: one HCI ACL data packet (no H4 indicator), as a controller sends it.
///
/// Parsing never traps: it fails with a typed error, or gives a packet with a 12-bit
/// handle whose data is the input after the header, that parses the same at any slice
/// offset, and that re-encodes to exactly the input (every header bit is kept).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzACLDataPacket(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let bytes = input.rest()
    let packet: ACLDataPacket
    do {
        packet = try ACLDataPacket(parsing: bytes[...])
    } catch {
        blackHole(error.description)
        require((try? ACLDataPacket(parsing: offsetSlice(bytes))) == nil, "parses only at an offset")
        return 0
    }
    require((try? ACLDataPacket(parsing: offsetSlice(bytes))) == packet, "parses differently at an offset")
    require(packet.handle <= 0x0FFF, "handle 0x\(String(packet.handle, radix: 16)) wider than 12 bits")
    require(packet.data.elementsEqual(bytes.dropFirst(4)), "data is not the bytes after the header")
    require(packet.encoded() == bytes, "re-encodes differently")
    let rebuilt = ACLDataPacket(handle: packet.handle, packetBoundary: packet.packetBoundary,
                                broadcast: packet.broadcast, data: packet.data)
    require(rebuilt == packet, "the memberwise packet differs")
    return 0
}
