import SwiftATTPDU

extension GATTClient {
    /// Write Without Response (Core 5.4 Vol 3 Part G §4.9.1): the Write Command to send
    /// with `ATTBearer.send(_:)`. No answer comes, so it is a PDU, not a procedure. The
    /// value must fit the command: at most ATT_MTU−3 octets.
    public static func writeWithoutResponse(handle: UInt16, value: [UInt8], mtu: Int) throws(GATTClientError) -> ATTPDU {
        let maximum = clamp(mtu) - 3
        guard value.count <= maximum else { throw .valueTooLong(length: value.count, maximum: maximum) }
        return .writeCommand(WriteCommand(handle: handle, value: value[...]))
    }

    /// Signed Write Without Response (Part G §4.9.2): a Signed Write Command carries a
    /// signature made with the CSRK that bonding distributes (Part H §2.4.5). swift-att
    /// has no Security Manager keys yet, so this always throws `notSupported`.
    public static func signedWriteWithoutResponse(handle: UInt16, value: [UInt8], mtu: Int) throws(GATTClientError) -> ATTPDU {
        throw .notSupported(
            "Signed Write Without Response needs a CSRK from bonding (Core 5.4 Vol 3 Part H §2.4.5), and swift-att "
                + "has no Security Manager keys yet: use Write Without Response, on an encrypted link if the peer requires it")
    }
}
