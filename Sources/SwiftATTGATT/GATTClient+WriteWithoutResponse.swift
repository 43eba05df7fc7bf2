import SwiftATTCrypto
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

    /// Signed Write Without Response (Part G §4.9.2): a Signed Write Command signed with
    /// this device's CSRK (the one bonding distributed to the server) and its next
    /// SignCounter (Part H §2.4.5), for a server to check and to write without a reply.
    /// The value must fit with the 12-octet signature: at most ATT_MTU−15 octets. The
    /// caller keeps the counter and never signs twice with the same one.
    public static func signedWriteWithoutResponse(handle: UInt16, value: [UInt8], mtu: Int,
                                                  signatureKey: UInt128, signCounter: UInt32) throws(GATTClientError) -> ATTPDU {
        let maximum = clamp(mtu) - 3 - DataSigning.signatureLength
        guard value.count <= maximum else { throw .valueTooLong(length: value.count, maximum: maximum) }
        var signed: [UInt8] = [SignedWriteCommand.opcode.rawValue, UInt8(handle & 0xFF), UInt8(handle >> 8)]
        signed += value
        let signature = DataSigning.signature(key: signatureKey, message: signed, counter: signCounter)
        do {
            return .signedWriteCommand(try SignedWriteCommand(handle: handle, value: value[...], authenticationSignature: signature[...]))
        } catch {
            // The signature is 12 octets by construction.
            preconditionFailure("DataSigning gave a signature of \(signature.count) octets")
        }
    }
}
