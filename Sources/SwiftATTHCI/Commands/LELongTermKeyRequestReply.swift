import SwiftATTCore

/// HCI_LE_Long_Term_Key_Request_Reply: a peripheral gives the key for the peer's LE Long
/// Term Key Request. Core 5.4 Vol 4 Part E §7.8.25.
public struct LELongTermKeyRequestReply: HCICommand, Hashable {
    @inlinable public static var opcode: HCIOpcode { HCIOpcode(ogf: 0x08, ocf: 0x001A) }
    public typealias ReturnParameters = HCIConnectionHandleReturn
    /// Connection_Handle: the connection, as the controller numbers it.
    public var connectionHandle: UInt16
    /// Long_Term_Key, least significant octet first on the wire.
    public var longTermKey: UInt128

    /// HCI_LE_Long_Term_Key_Request_Reply with these parameters.
    public init(connectionHandle: UInt16, longTermKey: UInt128) {
        self.connectionHandle = connectionHandle
        self.longTermKey = longTermKey
    }

    public var parametersLength: Int { 18 }

    public func encodeParameters(into writer: inout ByteWriter) {
        writer.write(connectionHandle)
        writer.write(longTermKey)
    }

    public init(parameters p: borrowing ArraySlice<UInt8>) throws(HCIDecodingError) {
        try HCIWire.check(p, "LE Long Term Key Request Reply parameters", length: 18)
        connectionHandle = p.littleEndianUInt16(at: 0)
        longTermKey = p.littleEndianUInt128(at: 2)
    }
}
