import SwiftATTCore

/// HCI_LE_Long_Term_Key_Request_Negative_Reply: the host has no key for the peer's
/// LE Long Term Key Request. Core 5.4 Vol 4 Part E §7.8.26.
public struct LELongTermKeyRequestNegativeReply: HCICommand, Hashable {
    @inlinable public static var opcode: HCIOpcode { HCIOpcode(ogf: 0x08, ocf: 0x001B) }
    public typealias ReturnParameters = HCIConnectionHandleReturn
    /// Connection_Handle: the connection, as the controller numbers it.
    public var connectionHandle: UInt16

    /// HCI_LE_Long_Term_Key_Request_Negative_Reply with these parameters.
    public init(connectionHandle: UInt16) { self.connectionHandle = connectionHandle }

    public var parametersLength: Int { 2 }

    public func encodeParameters(into writer: inout ByteWriter) {
        writer.write(connectionHandle)
    }

    public init(parameters p: borrowing ArraySlice<UInt8>) throws(HCIDecodingError) {
        try HCIWire.check(p, "LE Long Term Key Request Negative Reply parameters", length: 2)
        connectionHandle = p.littleEndianUInt16(at: 0)
    }
}
